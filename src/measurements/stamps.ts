/** How far ahead of its arrival a reading may be stamped (a device's clock a little fast). */
export const MAX_FUTURE_MS = 5 * 60 * 1000;

/**
 * The instant a reading is kept at, or `'too_far_ahead'`. No stamp: when it was received. A stamp
 * ahead of the receive time by up to MAX_FUTURE_MS is kept as the receive time: a reading from a
 * fast clock must not stay "newest" (and keep deciding a pump) over the real readings that follow
 * it. Further ahead: refused (a broken clock).
 */
export function keptStamp(stamp: number | undefined, receivedAt: number): number | 'too_far_ahead' {
  if (stamp === undefined) return receivedAt;
  if (stamp > receivedAt + MAX_FUTURE_MS) return 'too_far_ahead';
  return Math.min(stamp, receivedAt);
}

/**
 * Unanswered doses bounded by what they should have done. Once an actuator has answered doses to
 * learn from, the median move per second of run tells what a dose should do; a run of unanswered
 * doses that together should have moved the reading by more than half the distance from
 * `condition_value` to the sensor's critical threshold on the corrective side locks it out. A stuck
 * or unplugged probe, or a bottle run dry, then stops the pump long before the tank reaches a
 * critical level; `lockout_after` stays the ceiling before anything is learned.
 */

/** Answered doses needed before their effect counts as learned. */
export const MIN_LEARNED_DOSES = 3;
/** The share of the distance to the critical threshold unanswered doses may have been expected to cover. */
export const EXPECTED_SHARE = 0.5;

export interface JudgedDose {
  /** Seconds the pump ran. */
  duration: number;
  answered: boolean | null;
  /** The filtered move in the corrective direction, when measured. */
  response: number | null;
}

/**
 * The median move per second of run of the answered doses given (those with a measured, positive
 * move and a positive run time); null with fewer than MIN_LEARNED_DOSES of them.
 */
export function learnedEffectPerSecond(doses: readonly JudgedDose[]): number | null {
  const rates: number[] = [];
  for (const dose of doses) {
    if (dose.answered !== true || dose.response === null || !(dose.response > 0) || !(dose.duration > 0)) continue;
    const rate = dose.response / dose.duration;
    if (Number.isFinite(rate)) rates.push(rate);
  }
  if (rates.length < MIN_LEARNED_DOSES) return null;
  rates.sort((a, b) => a - b);
  const mid = rates.length >> 1;
  return rates.length % 2 === 1 ? rates[mid] : (rates[mid - 1] + rates[mid]) / 2;
}

/**
 * The distance from `conditionValue` to the critical threshold on the side the doses push toward
 * (down: critically low; up: critically high); null when that threshold is not beyond the
 * condition value that way (nothing to measure against).
 */
export function distanceToCritical(
  direction: 1 | -1,
  conditionValue: number,
  thresholds: { threshold_critically_low: number; threshold_critically_high: number },
): number | null {
  const distance =
    direction === -1 ? conditionValue - thresholds.threshold_critically_low : thresholds.threshold_critically_high - conditionValue;
  return distance > 0 && Number.isFinite(distance) ? distance : null;
}

/**
 * Whether unanswered doses totalling `unansweredSeconds` of run should together have moved the
 * reading by more than EXPECTED_SHARE of `distance`. false while nothing is learned or there is no
 * distance (the count ceiling `lockout_after` applies then).
 */
export function exceedsExpectedEffect(unansweredSeconds: number, effectPerSecond: number | null, distance: number | null): boolean {
  if (effectPerSecond === null || distance === null) return false;
  return unansweredSeconds * effectPerSecond > EXPECTED_SHARE * distance;
}

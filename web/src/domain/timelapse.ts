import type { Timelapse, TimelapseState } from '../api/types';

export const DURATION_UNITS = [
  { id: 'seconds', label: 'seconds', seconds: 1 },
  { id: 'minutes', label: 'minutes', seconds: 60 },
  { id: 'hours', label: 'hours', seconds: 3600 },
  { id: 'days', label: 'days', seconds: 86_400 },
] as const;
export type DurationUnit = (typeof DURATION_UNITS)[number]['id'];

/** A number of units in seconds; a fraction of a second is left for the service to refuse. */
export function toSeconds(amount: number, unit: DurationUnit): number {
  const factor = DURATION_UNITS.find((u) => u.id === unit)?.seconds ?? 1;
  return Math.round(amount * factor * 1e6) / 1e6;
}

/** How far a running timelapse is through its time, 0 to 1. */
export function progressOf(timelapse: Pick<Timelapse, 'start_date' | 'end_date'>, nowMs: number): number {
  const start = Date.parse(timelapse.start_date);
  const span = Date.parse(timelapse.end_date) - start;
  if (!(span > 0)) return 1;
  return Math.min(1, Math.max(0, (nowMs - start) / span));
}

/** After its last frame, a video is given this long to be made before the page stops looking. */
export const ASSEMBLY_WATCH_MS = 10 * 60_000;

/**
 * When to read the status again, or null for never: while a timelapse runs, at the pace of its
 * frames (1 s to 10 s), and every second until its first frame (taken as it starts) is in; while
 * its video is being made, every 3 s for a while. Otherwise nothing changes without the page
 * itself doing something.
 */
export function statusPollMs(state: TimelapseState, nowMs: number): number | null {
  const { metadata, config } = state;
  if (!metadata) return null;
  if (state.running && metadata.frames + metadata.failed_frames === 0) return 1000;
  if (state.running) return Math.min(10_000, Math.max(1000, (config?.frequency ?? 10) * 1000));
  if (metadata.ready) return null;
  const lastActivity = Date.parse(metadata.latest_frame_date ?? metadata.start_date);
  return nowMs - lastActivity < ASSEMBLY_WATCH_MS ? 3000 : null;
}

/**
 * A sensor is *stuck* when its newest readings all hold exactly the same value, at least 3 of
 * them, and the first of that run is at least `stuck_after` seconds old (docs/api.md §14): a
 * frozen probe or a dead ADC repeats one number; a live probe wavers. `stuck_after` null turns
 * the rule off; a missing run, count or time with the rule on counts as stuck (fail closed).
 *
 * What a caller must supply to `equalRun` / `isStuck`: the sensor's readings newest first (ties in
 * timestamp: higher id first), continuing until the list holds at least 3 readings AND either a
 * reading whose value differs from the newest or a reading at least `stuck_after` seconds old —
 * or every reading the sensor has. More is always fine (`coversStuckRun` checks a list). The run
 * may end beyond what was supplied only once it is already old enough, which gives the same answer.
 */
import { firstMillisecondAfter, hasElapsed } from './instants.js';
import type { EqualRun } from './inputs.js';

export const STUCK_MIN_READINGS = 3;

interface TimedValue {
  value: number;
  timestamp: number;
}

/** The run of equal values at the newest end of `newestFirst`, or null for no readings. */
export function equalRun(newestFirst: readonly TimedValue[]): EqualRun | null {
  if (newestFirst.length === 0) return null;
  const value = newestFirst[0].value;
  let count = 0;
  let since = Number.POSITIVE_INFINITY;
  for (const reading of newestFirst) {
    if (reading.value !== value) break;
    count++;
    // The oldest of the run; a NaN time (Math.min keeps it) makes the run's age unknown, which counts as old.
    since = Math.min(since, reading.timestamp);
  }
  return { count, since };
}

/** Whether a run makes its sensor stuck at `at`. */
export function isStuckRun(run: EqualRun | null | undefined, stuckAfter: number | null, at: number): boolean {
  if (stuckAfter === null) return false;
  if (!run) return true;
  return !(run.count < STUCK_MIN_READINGS) && !((at - run.since) / 1000 < stuckAfter);
}

/** `isStuckRun` on readings given newest first (see the module comment for how many). */
export const isStuck = (newestFirst: readonly TimedValue[], stuckAfter: number | null, now: number): boolean =>
  stuckAfter !== null && newestFirst.length > 0 && isStuckRun(equalRun(newestFirst), stuckAfter, now);

/**
 * The first instant after `now` at which time alone makes the sensor stuck, or null: already
 * stuck, the rule off, or fewer than 3 equal readings (only a new reading changes that).
 */
export function stuckAt(run: EqualRun | null | undefined, stuckAfter: number | null, now: number): number | null {
  if (stuckAfter === null || !run || isStuckRun(run, stuckAfter, now) || !(run.count >= STUCK_MIN_READINGS)) return null;
  return firstMillisecondAfter(now, run.since + stuckAfter * 1000, (t) => hasElapsed(run.since, t, stuckAfter));
}

/** Whether `newestFirst` holds enough readings for `isStuck` to answer as it would on every reading. */
export function coversStuckRun(newestFirst: readonly TimedValue[], stuckAfter: number, now: number, isEveryReading = false): boolean {
  if (isEveryReading) return true;
  if (newestFirst.length < STUCK_MIN_READINGS) return false;
  const value = newestFirst[0].value;
  return newestFirst.some((r) => r.value !== value || hasElapsed(r.timestamp, now, stuckAfter));
}

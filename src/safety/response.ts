/**
 * Judging a dose on the probe's filtered signal against the probe's own noise, for actuators whose
 * `min_response` is null (automatic).
 *
 * A single reading against a single reading lets noise decide: a probe wavering by ±0.05 pH reads
 * a little lower after some doses of an empty bottle (counted as answered, so a lockout never
 * comes) and a little higher after some working doses (counted as missed). Instead the reading
 * before the dose is the median of the last few readings at or before it, the reading after it the
 * median of the first few taken at least `response_delay` after it, and the move between them must
 * stand out from the spread those medians would have from noise alone. The noise is measured on
 * the sensor's own recent readings as a robust spread of successive differences: a slow trend and
 * the step a dose makes hardly change it.
 */
import { hasElapsed } from './instants.js';

export interface TimedValue {
  value: number;
  timestamp: number;
}

/** Readings each side of a dose whose median is compared. */
export const RESPONSE_WINDOW_READINGS = 3;
/** How far back the noise is measured, before the dose (ms). */
export const NOISE_LOOKBACK_MS = 2 * 3600 * 1000;
/** Fewer successive differences than this do not measure noise: the dose waits for readings. */
export const MIN_NOISE_DIFFERENCES = 4;
/**
 * How many standard deviations of the compared medians a move must exceed to count as answered,
 * and to count as the wrong way. One in a hundred doses of an empty bottle looks answered by
 * chance at 2.33; the wrong way asks for more, since a tank drifting against the dose adds to it.
 */
export const ANSWER_SIGMAS = 2.33;
export const REVERSED_SIGMAS = 3;

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * The standard deviation of a probe's noise from its readings in time order: the median absolute
 * deviation of successive differences (× 1.4826 for a normal spread, ÷ √2 as a difference holds
 * two readings' noise), and never below half the smallest step the probe shows (a probe that
 * rounds hides its noise in equal readings). null when there are too few readings to say.
 */
export function probeNoise(values: readonly number[]): number | null {
  const finite = values.filter((v) => Number.isFinite(v));
  if (finite.length - 1 < MIN_NOISE_DIFFERENCES) return null;
  const differences: number[] = [];
  for (let i = 1; i < finite.length; i++) differences.push(finite[i] - finite[i - 1]);
  const middle = median(differences);
  const spread = (1.4826 * median(differences.map((d) => Math.abs(d - middle)))) / Math.SQRT2;
  let step = Infinity;
  for (const d of differences) if (d !== 0 && Math.abs(d) < step) step = Math.abs(d);
  return Math.max(spread, step === Infinity ? 0 : step / 2);
}

/** The standard deviation of the median of `n` readings of noise `sigma` (the mean's for n ≤ 2). */
export function medianSpread(sigma: number, n: number): number {
  if (n <= 2) return sigma / Math.sqrt(Math.max(1, n));
  return sigma * Math.sqrt(Math.PI / (2 * n));
}

export type FilteredJudgement =
  /** Not judged yet: too few readings after the dose, or too few to measure the noise. */
  null | {
    answered: boolean;
    reversed: boolean;
    /** The move of the filtered reading in the corrective direction (negative: the wrong way). */
    moved: number;
    /** The move it had to exceed. */
    threshold: number;
  };

/**
 * Judges one dose. `readings` are the sensor's readings around it in any order; `direction` the
 * way the dose should move them (+1 up, -1 down); `delaySeconds` the mixing time. Answered when the
 * filtered move in that direction exceeds ANSWER_SIGMAS spreads of the difference of the two
 * medians; reversed when it goes the other way by more than REVERSED_SIGMAS spreads.
 */
export function judgeFiltered(
  activatedAt: number,
  direction: 1 | -1,
  readings: readonly TimedValue[],
  delaySeconds: number,
): FilteredJudgement {
  const usable = readings.filter((r) => Number.isFinite(r.value) && Number.isFinite(r.timestamp));
  const sorted = [...usable].sort((a, b) => a.timestamp - b.timestamp);
  const before = sorted.filter((r) => r.timestamp <= activatedAt).slice(-RESPONSE_WINDOW_READINGS);
  const after = sorted.filter((r) => hasElapsed(activatedAt, r.timestamp, delaySeconds)).slice(0, RESPONSE_WINDOW_READINGS);
  if (before.length === 0 || after.length < RESPONSE_WINDOW_READINGS) return null;
  const lastAfter = after[after.length - 1].timestamp;
  const noise = probeNoise(
    sorted.filter((r) => r.timestamp >= activatedAt - NOISE_LOOKBACK_MS && r.timestamp <= lastAfter).map((r) => r.value),
  );
  if (noise === null) return null;
  const spread = Math.hypot(medianSpread(noise, before.length), medianSpread(noise, after.length));
  const moved = direction * (median(after.map((r) => r.value)) - median(before.map((r) => r.value)));
  const threshold = ANSWER_SIGMAS * spread;
  return { answered: moved > threshold, reversed: moved < -REVERSED_SIGMAS * spread, moved, threshold };
}

/** Synthetic measurements for demos and dashboard development (POST /Measurement/Random). */
import { MAX_DEVIATION_RATE, type RandomMeasurements } from '../domain/measurement.js';
import type { Thresholds } from '../domain/thresholds.js';

/** How a series is shaped: the request's options but for how many and whether to replace. */
type RandomSeriesOptions = Omit<RandomMeasurements, 'nb_measurements' | 'replace'>;

/** The walk stays around the middle of the critical range. */
type SensorRange = Pick<Thresholds, 'threshold_critically_low' | 'threshold_critically_high'>;

export interface Series {
  timestamps: Float64Array;
  values: Float64Array;
}

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const YEAR = 365 * DAY;

/** A small seedable generator (mulberry32), so tests can replay a series. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function gaussian(random: () => number): number {
  // Box-Muller; 1 - u keeps the logarithm finite.
  const u = 1 - random();
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** How many measurements each sensor gets: the total rounded up to a multiple of the sensor count. */
export function perSensorCount(total: number, sensors: number): number {
  return Math.ceil(total / sensors);
}

/**
 * Splits a sensor's share into the parts within the last year, day and hour. What the three
 * ratios leave over (their sum may be below 1) goes to the year, so the share is generated whole.
 */
export function splitShare(count: number, options: RandomSeriesOptions): { year: number; day: number; hour: number } {
  const day = Math.floor(count * options.dayly_measurements_ratio);
  const hour = Math.floor(count * options.hourly_measurements_ratio);
  return { year: count - day - hour, day, hour };
}

/** Two decimals, where a double still has them (beyond 2^53 / 100 it holds whole numbers only). */
function twoDecimals(value: number): number {
  return Math.abs(value) < 2 ** 53 / 100 ? Math.round(value * 100) / 100 : value;
}

/**
 * One sensor's series in time order: random times within the last year, day and hour, and a
 * smoothed random walk around the middle of the critical range — a Gaussian step with standard
 * deviation (critically_high - critically_low) × deviation_rate / 2, pulled toward the middle by
 * drift_adjustment, exponentially smoothed by smoothing_factor, each step capped at half the
 * standard deviation, rounded to 2 decimals.
 *
 * The walk is computed in units of half the critical range around its middle, then scaled: the
 * range of thresholds such as ±1e308 is wider than a double can hold, and its spread times the
 * deviation rate wider still. Every value is finite: one that would lie beyond the largest double
 * is held at it.
 */
export function randomSeries(sensor: SensorRange, count: number, options: RandomSeriesOptions, now: number, random: () => number): Series {
  const { year, day, hour } = splitShare(count, options);
  const timestamps = new Float64Array(count);
  let i = 0;
  for (const [n, span] of [
    [year, YEAR],
    [day, DAY],
    [hour, HOUR],
  ] as const) {
    for (let k = 0; k < n; k++) timestamps[i++] = now - Math.floor(random() * span);
  }
  timestamps.sort();

  // Halves first: low + high and high - low overflow for thresholds near ±1.8e308.
  const middle = sensor.threshold_critically_low / 2 + sensor.threshold_critically_high / 2;
  const halfRange = sensor.threshold_critically_high / 2 - sensor.threshold_critically_low / 2;
  const deviation = Math.min(options.deviation_rate, MAX_DEVIATION_RATE);
  const cap = deviation / 2;
  const values = new Float64Array(count);
  let offset = 0;
  for (let k = 0; k < count; k++) {
    const proposal = offset + gaussian(random) * deviation - offset * options.drift_adjustment;
    const smoothed = options.smoothing_factor * offset + (1 - options.smoothing_factor) * proposal;
    offset += Math.max(-cap, Math.min(cap, smoothed - offset));
    const value = middle + offset * halfRange;
    values[k] = twoDecimals(Math.max(-Number.MAX_VALUE, Math.min(Number.MAX_VALUE, value)));
  }
  return { timestamps, values };
}

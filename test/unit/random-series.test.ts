import { describe, expect, it } from 'vitest';
import { MAX_DEVIATION_RATE } from '../../src/domain/measurement.js';
import { perSensorCount, randomSeries, seededRandom, splitShare } from '../../src/measurements/random-series.js';

const options = {
  yearly_measurements_ratio: 0.8,
  dayly_measurements_ratio: 0.1,
  hourly_measurements_ratio: 0.1,
  deviation_rate: 0.2,
  smoothing_factor: 0.5,
  drift_adjustment: 0.15,
};
const ph = { threshold_critically_low: 0, threshold_critically_high: 10 };
const now = Date.UTC(2026, 10, 22, 12);
const H = 3600_000;

describe('random series', () => {
  it('rounds the total up to a multiple of the sensor count', () => {
    expect(perSensorCount(500, 3)).toBe(167);
    expect(perSensorCount(9, 3)).toBe(3);
    expect(perSensorCount(1, 4)).toBe(1);
  });

  it('splits a share by the ratios, giving what is left over to the year', () => {
    expect(splitShare(1000, options)).toEqual({ year: 800, day: 100, hour: 100 });
    expect(splitShare(1000, { ...options, dayly_measurements_ratio: 0.05, hourly_measurements_ratio: 0 })).toEqual({
      year: 950,
      day: 50,
      hour: 0,
    });
  });

  it('places the parts within the last year, day and hour, in time order', () => {
    const { timestamps } = randomSeries(
      ph,
      10_000,
      { ...options, yearly_measurements_ratio: 0, dayly_measurements_ratio: 0.5, hourly_measurements_ratio: 0.5 },
      now,
      seededRandom(1),
    );
    const inHour = Array.from(timestamps).filter((t) => t > now - H).length;
    expect(inHour).toBeGreaterThanOrEqual(5000);
    expect(Math.min(...timestamps)).toBeGreaterThan(now - 24 * H);
    expect(Math.max(...timestamps)).toBeLessThanOrEqual(now);
    for (let i = 1; i < timestamps.length; i++) expect(timestamps[i]).toBeGreaterThanOrEqual(timestamps[i - 1]);
  });

  it('walks around the middle of the critical range with capped, rounded steps', () => {
    const { values } = randomSeries(ph, 20_000, options, now, seededRandom(7));
    const sd = (10 * 0.2) / 2;
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    expect(Math.abs(mean - 5)).toBeLessThan(1);
    expect(Math.abs(values[0] - 5)).toBeLessThanOrEqual(sd / 2 + 0.005);
    for (let i = 1; i < values.length; i++) {
      expect(Math.abs(values[i] - values[i - 1])).toBeLessThanOrEqual(sd / 2 + 0.01);
      expect(Math.round(values[i] * 100) / 100).toBe(values[i]);
    }
  });

  it('is reproducible from the seed and flat when the range is empty', () => {
    const a = randomSeries(ph, 100, options, now, seededRandom(3));
    const b = randomSeries(ph, 100, options, now, seededRandom(3));
    expect(Array.from(a.values)).toEqual(Array.from(b.values));
    const flat = randomSeries({ threshold_critically_low: 4, threshold_critically_high: 4 }, 50, options, now, seededRandom(3));
    expect(new Set(flat.values)).toEqual(new Set([4]));
  });
});

describe('random series at the edges of a double', () => {
  it('stays finite for thresholds of ±1e308 and the largest deviation rate', () => {
    const widest = { threshold_critically_low: -1e308, threshold_critically_high: 1e308 };
    for (const deviation_rate of [0.2, MAX_DEVIATION_RATE, 1e308]) {
      const { values } = randomSeries(widest, 2000, { ...options, deviation_rate, smoothing_factor: 0 }, now, seededRandom(5));
      for (const value of values) expect(Number.isFinite(value)).toBe(true);
    }
    const { values } = randomSeries(
      { threshold_critically_low: -Number.MAX_VALUE, threshold_critically_high: Number.MAX_VALUE },
      500,
      options,
      now,
      seededRandom(9),
    );
    for (const value of values) expect(Number.isFinite(value)).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { aggregateColumns, bucketWidthSec, dropBefore, foldReading, rawColumns, type SeriesColumns } from '../src/domain/live-series';

const raw = (times: number[], values: number[]): SeriesColumns => ({ times: [...times], values: [...values] });

describe('foldReading on a raw series', () => {
  it('appends readings while a bucket holds fewer than two', () => {
    const series = raw([0, 10], [1, 2]);
    expect(foldReading(series, 20, 3, 10)).toBe(true);
    expect(foldReading(series, 25, 4, 10)).toBe(true);
    expect(series).toEqual({ times: [0, 10, 20, 25], values: [1, 2, 3, 4] });
  });

  it('keeps only the lowest and highest of a bucket, in time order', () => {
    const series = raw([20, 21], [5, 6]);
    foldReading(series, 22, 1, 10);
    expect(series).toEqual({ times: [21, 22], values: [6, 1] });
    foldReading(series, 23, 3, 10);
    expect(series).toEqual({ times: [21, 22], values: [6, 1] });
    foldReading(series, 24, 9, 10);
    expect(series).toEqual({ times: [22, 24], values: [1, 9] });
  });

  it('leaves out a reading older than the newest point', () => {
    const series = raw([0, 10], [1, 2]);
    expect(foldReading(series, 5, 7, 10)).toBe(false);
    expect(series).toEqual({ times: [0, 10], values: [1, 2] });
  });

  it('stays bounded by two points per bucket however many readings arrive', () => {
    const series = raw([], []);
    // An hour at 10 readings a second into 3.6 s buckets (1,000 pixels).
    for (let i = 0; i < 36_000; i++) foldReading(series, i / 10, Math.sin(i / 100), 3.6);
    expect(series.times.length).toBeLessThanOrEqual(2 * 1000);
    expect(series.times.length).toBeGreaterThan(1000);
    expect(Math.max(...series.values)).toBeCloseTo(1, 3);
    expect(Math.min(...series.values)).toBeCloseTo(-1, 3);
    for (let i = 1; i < series.times.length; i++) expect(series.times[i]).toBeGreaterThan(series.times[i - 1]);
  });
});

describe('foldReading on an aggregate series', () => {
  const buckets = [
    { start: '2026-01-01T00:00:00.000Z', end: '2026-01-01T01:00:00.000Z', count: 2, min: 1, max: 3, mean: 2 },
    { start: '2026-01-01T01:00:00.000Z', end: '2026-01-01T02:00:00.000Z', count: 1, min: 4, max: 4, mean: 4 },
  ];
  const hour = Date.parse('2026-01-01T01:00:00Z') / 1000;

  it('folds a reading into the last bucket: mean, minimum, maximum and count', () => {
    const series = aggregateColumns(buckets);
    foldReading(series, hour + 600, 10, 3600);
    expect(series.values).toEqual([2, 7]);
    expect(series.lows).toEqual([1, 4]);
    expect(series.highs).toEqual([3, 10]);
    expect(series.counts).toEqual([2, 2]);
  });

  it('opens the next bucket on the same grid', () => {
    const series = aggregateColumns(buckets);
    foldReading(series, hour + 2.5 * 3600, 5, 3600);
    expect(series.times).toEqual([hour - 3600, hour, hour + 2 * 3600]);
    expect(series.values.at(-1)).toBe(5);
    expect(series.counts?.at(-1)).toBe(1);
  });

  it('reads the bucket width from the answer', () => {
    expect(bucketWidthSec(buckets, 1)).toBe(3600);
    expect(bucketWidthSec([], 42)).toBe(42);
  });
});

describe('dropBefore', () => {
  it('removes the points that scrolled out of the range from every column', () => {
    const series = aggregateColumns([
      { start: '1970-01-01T00:00:00Z', count: 1, min: 0, max: 0, mean: 0 },
      { start: '1970-01-01T00:00:10Z', count: 1, min: 1, max: 1, mean: 1 },
      { start: '1970-01-01T00:00:20Z', count: 1, min: 2, max: 2, mean: 2 },
    ]);
    dropBefore(series, 10);
    expect(series).toEqual({ times: [10, 20], values: [1, 2], lows: [1, 2], highs: [1, 2], counts: [1, 1] });
    dropBefore(series, 100);
    expect(series.times).toEqual([]);
  });

  it('reads raw measurements as seconds', () => {
    expect(rawColumns([{ timestamp: '1970-01-01T00:00:01.500Z', value: 3 }])).toEqual({ times: [1.5], values: [3] });
  });
});

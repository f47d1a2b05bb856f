import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bucketsOf, bucketStream, foldBuckets, type Bucket } from '../../src/domain/bucket-fold.js';
import { retentionCutoffs } from '../../src/history/retention.js';
import {
  bucketCeil,
  bucketsIn,
  bucketStart,
  DAY,
  FIVE_MINUTES,
  HOUR,
  keptSizeDividing,
  sizeFittingIn,
  sizeForBuckets,
} from '../../src/domain/bucket-sizes.js';
import { merge, summaryOf, type MeasurementLike } from '../../src/domain/bucket-summary.js';

const YEAR = 365 * DAY;
const T0 = Date.UTC(2026, 10, 22);

/** Measurements with distinct ids, timestamps within a few days (ties included), integer values so sums are exact. */
const measurements = fc
  .array(fc.record({ timestamp: fc.integer({ min: T0 - 3 * DAY, max: T0 + 3 * DAY }), value: fc.integer({ min: -50, max: 50 }) }), {
    minLength: 1,
    maxLength: 200,
  })
  .map((rows) => rows.map((r, i) => ({ ...r, measurement_id: i + 1 })));

describe('bucket arithmetic in UTC', () => {
  it('starts buckets on multiples of their size since the epoch, before 1970 too', () => {
    expect(bucketStart(Date.UTC(2026, 10, 22, 10, 59, 59, 999), HOUR)).toBe(Date.UTC(2026, 10, 22, 10));
    expect(bucketStart(Date.UTC(2026, 10, 22, 11), HOUR)).toBe(Date.UTC(2026, 10, 22, 11));
    expect(bucketStart(Date.UTC(2026, 10, 22, 23, 59), DAY)).toBe(Date.UTC(2026, 10, 22));
    expect(bucketStart(-1, DAY)).toBe(-DAY);
    expect(bucketStart(Date.UTC(1969, 11, 31, 12), DAY)).toBe(Date.UTC(1969, 11, 31));
    expect(bucketCeil(Date.UTC(2026, 10, 22, 10, 0, 0, 1), HOUR)).toBe(Date.UTC(2026, 10, 22, 11));
    expect(bucketsIn(Date.UTC(2026, 10, 22, 10, 30), Date.UTC(2026, 10, 22, 12), HOUR)).toBe(2);
  });

  it('folds a size from the coarsest kept size it is a multiple of, and only then', () => {
    expect(keptSizeDividing(DAY)).toBe(DAY);
    expect(keptSizeDividing(7 * DAY)).toBe(DAY);
    expect(keptSizeDividing(3 * HOUR)).toBe(HOUR);
    expect(keptSizeDividing(15 * 60_000)).toBe(FIVE_MINUTES);
    expect(keptSizeDividing(7 * 60_000)).toBeUndefined();
    expect(keptSizeDividing(1000)).toBeUndefined();
  });

  it('picks a size that gives at most the asked buckets, a multiple of the coarsest kept size that still gives that many', () => {
    // A year in 500 buckets: 17.52 h each → multiples of an hour, 18 h.
    expect(sizeForBuckets(YEAR, 500)).toBe(18 * HOUR);
    // A day in 100 buckets: 14.4 min → multiples of 5 minutes, 15 min.
    expect(sizeForBuckets(DAY, 100)).toBe(15 * 60_000);
    // Ten years in 1,000: 3.65 days → 4 days.
    expect(sizeForBuckets(10 * YEAR, 1000)).toBe(4 * DAY);
    // Too short for any kept size: whole milliseconds, from raw rows.
    expect(sizeForBuckets(HOUR, 1000)).toBe(3600);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 * YEAR }), fc.integer({ min: 1, max: 100_000 }), (span, most) => {
        const size = sizeForBuckets(span, most);
        expect(Math.ceil(span / size)).toBeLessThanOrEqual(most);
        const kept = keptSizeDividing(size);
        if (kept !== undefined) expect(span / kept).toBeGreaterThanOrEqual(Math.min(most, span / kept));
      }),
    );
  });
});

describe('the size for a number of buckets', () => {
  it('fits aligned windows, and says so when no size can (one bucket across the epoch)', () => {
    const start = Date.UTC(2026, 10, 22, 10, 30);
    const size = sizeFittingIn(start, start + 24 * HOUR, 2) as number;
    expect(bucketsIn(start, start + 24 * HOUR, size)).toBeLessThanOrEqual(2);
    expect(sizeFittingIn(start, start + 24 * HOUR, 1)).toBeGreaterThan(24 * HOUR);
    expect(sizeFittingIn(Date.UTC(1, 0, 1), Date.UTC(9999, 0, 1), 1)).toBeUndefined();
    expect(sizeFittingIn(-5, 5, 1)).toBeUndefined();
    expect(
      bucketsIn(Date.UTC(1, 0, 1), Date.UTC(9999, 0, 1), sizeFittingIn(Date.UTC(1, 0, 1), Date.UTC(9999, 0, 1), 2) as number),
    ).toBeLessThanOrEqual(2);
  });
});

describe('bucket summaries', () => {
  it('merge in any grouping and order gives the summary of the whole', () => {
    fc.assert(
      fc.property(measurements, fc.integer({ min: 0, max: 1000 }), (rows, seed) => {
        const whole = rows.map(summaryOf).reduce(merge);
        // Shuffle deterministically and merge in two halves.
        const shuffled = [...rows].sort((a, b) => ((a.measurement_id * 7919 + seed) % 101) - ((b.measurement_id * 7919 + seed) % 101));
        const cut = seed % shuffled.length;
        const parts = [shuffled.slice(0, cut), shuffled.slice(cut)].filter((p) => p.length > 0).map((p) => p.map(summaryOf).reduce(merge));
        expect(parts.reduce(merge)).toEqual(whole);
      }),
    );
  });

  it('keeps the lowest and highest value, the earliest on a tie, and the first and last by time then id', () => {
    const rows: MeasurementLike[] = [
      { measurement_id: 5, timestamp: 100, value: 3 },
      { measurement_id: 2, timestamp: 100, value: 1 },
      { measurement_id: 3, timestamp: 50, value: 9 },
      { measurement_id: 4, timestamp: 200, value: 1 },
      { measurement_id: 1, timestamp: 200, value: 9 },
    ];
    const s = rows.map(summaryOf).reduce(merge);
    expect(s.count).toBe(5);
    expect(s.sum).toBe(23);
    expect(s.min).toEqual({ id: 2, ts: 100, value: 1 });
    expect(s.max).toEqual({ id: 3, ts: 50, value: 9 });
    expect(s.first).toEqual({ id: 3, ts: 50, value: 9 });
    expect(s.last).toEqual({ id: 4, ts: 200, value: 1 });
  });

  it('folding smaller buckets equals bucketing the rows at the larger size; the stream equals the batch', () => {
    fc.assert(
      fc.property(measurements, (rows) => {
        for (const [fine, coarse] of [
          [FIVE_MINUTES, HOUR],
          [HOUR, DAY],
          [FIVE_MINUTES, 3 * DAY],
        ]) {
          expect(foldBuckets(bucketsOf(rows, fine), coarse)).toEqual(bucketsOf(rows, coarse));
        }
        const streamed = new Map<number, Bucket[]>();
        const stream = bucketStream([FIVE_MINUTES, DAY], (size, b) => streamed.set(size, [...(streamed.get(size) ?? []), b]));
        for (const r of [...rows].sort((a, b) => a.timestamp - b.timestamp || a.measurement_id - b.measurement_id)) stream.push(r);
        stream.end();
        expect(streamed.get(FIVE_MINUTES)).toEqual(bucketsOf(rows, FIVE_MINUTES));
        expect(streamed.get(DAY)).toEqual(bucketsOf(rows, DAY));
      }),
    );
  });
});

describe('retention cutoffs', () => {
  const now = Date.UTC(2026, 10, 22, 15, 30);
  it('falls on a UTC midnight, so every kept bucket is wholly before or after it', () => {
    expect(retentionCutoffs({ rawMs: 30 * DAY }, now)).toEqual({ raw: Date.UTC(2026, 9, 23), fiveMinute: undefined });
  });
  it('never retires 5-minute buckets before the raw rows they summarize, nor without raw retention', () => {
    expect(retentionCutoffs({ rawMs: 30 * DAY, fiveMinuteMs: 7 * DAY }, now)).toEqual({
      raw: Date.UTC(2026, 9, 23),
      fiveMinute: Date.UTC(2026, 9, 23),
    });
    expect(retentionCutoffs({ rawMs: 7 * DAY, fiveMinuteMs: 30 * DAY }, now)).toEqual({
      raw: Date.UTC(2026, 10, 15),
      fiveMinute: Date.UTC(2026, 9, 23),
    });
    expect(retentionCutoffs({ fiveMinuteMs: 30 * DAY }, now)).toEqual({ raw: undefined, fiveMinute: undefined });
  });
});

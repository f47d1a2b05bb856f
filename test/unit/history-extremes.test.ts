import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extremesPerBucket } from '../../src/history/extremes.js';
import { type Bucket, bucketsOf, foldBuckets } from '../../src/domain/bucket-fold.js';
import { DAY, FIVE_MINUTES, HOUR } from '../../src/domain/bucket-sizes.js';

const T0 = Date.UTC(2026, 10, 22);

/** Measurements with distinct ids over two days, many sharing a value or a timestamp. */
const measurements = fc
  .array(
    fc.record({
      timestamp: fc.integer({ min: T0 - DAY, max: T0 + DAY }).map((t) => t - (t % 60_000)),
      value: fc.integer({ min: 0, max: 3 }),
    }),
    {
      minLength: 1,
      maxLength: 300,
    },
  )
  .map((rows) => rows.map((r, i) => ({ ...r, measurement_id: 1 + ((i * 7919) % 100_003) })));

const rowOf = (b: Bucket) => [b.start, b.count, b.min.value, b.min.ts, b.min.id, b.max.value, b.max.ts, b.max.id];

/** The definition: fold the buckets whole, then take each one's min and max in time order. */
function byFolding(buckets: Bucket[], size: number) {
  return foldBuckets(buckets, size).flatMap(({ min, max }) => {
    if (min.id === max.id) return [min];
    return min.ts < max.ts || (min.ts === max.ts && min.id < max.id) ? [min, max] : [max, min];
  });
}

describe('extremes per bucket from kept bucket rows', () => {
  it('are the min and max points of the folded buckets, in time order', () => {
    fc.assert(
      fc.property(measurements, fc.constantFrom(HOUR, 3 * HOUR, DAY), (rows, size) => {
        const kept = bucketsOf(rows, FIVE_MINUTES);
        expect(extremesPerBucket(kept.map(rowOf), size)).toEqual(byFolding(kept, size));
      }),
      { numRuns: 300 },
    );
  });

  it('answer nothing for no rows, and one point for a bucket of one row', () => {
    expect(extremesPerBucket([], HOUR)).toEqual([]);
    expect(extremesPerBucket([[T0, 1, 5, T0 + 1, 9, 5, T0 + 1, 9]], HOUR)).toEqual([{ id: 9, ts: T0 + 1, value: 5 }]);
  });
});

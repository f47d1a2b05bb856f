import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commitBuckets, type TouchedBucket } from '../../src/domain/bucket-commit.js';
import { bucketsOf } from '../../src/domain/bucket-fold.js';
import { DAY, FIVE_MINUTES, HOUR, KEPT_SIZES } from '../../src/domain/bucket-sizes.js';
import { merge, mergeInto, summaryOf } from '../../src/domain/bucket-summary.js';

const T0 = Date.UTC(2026, 10, 22);

/** The per-row reference: each size's buckets of each sensor, every row added to each. */
function perRow(rows: { measurement_id: number; sensor_id: number; value: number; timestamp: number }[]): TouchedBucket[] {
  const out: TouchedBucket[] = [];
  for (const sensorId of new Set(rows.map((r) => r.sensor_id)))
    for (const size of KEPT_SIZES)
      for (const bucket of bucketsOf(
        rows.filter((r) => r.sensor_id === sensorId),
        size,
      ))
        out.push({ sensorId, size, bucket });
  return out;
}
const byKey = (touched: TouchedBucket[]) =>
  [...touched].sort((a, b) => a.sensorId - b.sensorId || a.size - b.size || a.bucket.start - b.bucket.start);

describe('a commit folded into its buckets', () => {
  it('adds each row to its 5-minute bucket and merges the hour and the day from those', () => {
    const rows = [
      { measurement_id: 1, sensor_id: 1, value: 5, timestamp: T0 + 1000 },
      { measurement_id: 2, sensor_id: 1, value: 3, timestamp: T0 + FIVE_MINUTES + 1 },
      { measurement_id: 3, sensor_id: 2, value: 9, timestamp: T0 + HOUR },
      // Late and out of order: before the sensor's first row, in the same day.
      { measurement_id: 4, sensor_id: 1, value: 7, timestamp: T0 + 10 },
    ];
    const touched = commitBuckets(rows, KEPT_SIZES);
    expect(touched.map((t) => [t.sensorId, t.size, t.bucket.start, t.bucket.count])).toEqual([
      [1, FIVE_MINUTES, T0, 2],
      [1, FIVE_MINUTES, T0 + FIVE_MINUTES, 1],
      [1, HOUR, T0, 3],
      [1, DAY, T0, 3],
      [2, FIVE_MINUTES, T0 + HOUR, 1],
      [2, HOUR, T0 + HOUR, 1],
      [2, DAY, T0, 1],
    ]);
    const day = touched.find((t) => t.sensorId === 1 && t.size === DAY)!.bucket;
    expect(day).toMatchObject({ sum: 15, min: { id: 2 }, max: { id: 4 }, first: { id: 4 }, last: { id: 2 } });
    // The 5-minute buckets are written as they are: merging the coarser ones left them alone.
    expect(touched[0].bucket).toMatchObject({ count: 2, sum: 12 });
  });

  it('merges in place as merge does', () => {
    const a = { ...summaryOf({ measurement_id: 1, value: 2, timestamp: 5 }) };
    const b = summaryOf({ measurement_id: 2, value: 1, timestamp: 9 });
    const expected = merge(a, b);
    mergeInto(a, b);
    expect(a).toEqual(expected);
  });

  it('gives what adding every row to every size gives, late rows, ties and several sensors included', () => {
    const rows = fc
      .array(
        fc.record({
          sensor_id: fc.integer({ min: 1, max: 3 }),
          timestamp: fc.integer({ min: T0 - 2 * DAY, max: T0 + 2 * DAY }),
          value: fc.integer({ min: -50, max: 50 }),
        }),
        { minLength: 1, maxLength: 300 },
      )
      .map((rs) => rs.map((r, i) => ({ ...r, measurement_id: i + 1 })));
    fc.assert(
      fc.property(rows, (rs) => {
        expect(byKey(commitBuckets(rs, KEPT_SIZES))).toEqual(byKey(perRow(rs)));
      }),
      { numRuns: 300 },
    );
  });
});

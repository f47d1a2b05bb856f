import type { Bucket } from './bucket-fold.js';

/**
 * What a read of history buckets answers, as one array of numbers per bucket (no object per row:
 * a year of hourly buckets is 8,760 of them): `whole` buckets (every field), only the `values`
 * an aggregate answer shows, or the `extremes` max_points answers (in the order of
 * src/history/extremes.ts). The store maps its columns onto these positions.
 */
export type BucketRead = 'whole' | 'values' | 'extremes';
export type BucketRow = readonly number[];

/** Where each field sits in a `whole` row. */
export const R = {
  start: 0,
  count: 1,
  sum: 2,
  minValue: 3,
  minTs: 4,
  minId: 5,
  maxValue: 6,
  maxTs: 7,
  maxId: 8,
  firstValue: 9,
  firstTs: 10,
  firstId: 11,
  lastValue: 12,
  lastTs: 13,
  lastId: 14,
} as const;
/** Where each field sits in a `values` row. */
export const V = { start: 0, count: 1, sum: 2, min: 3, max: 4, first: 5, last: 6 } as const;

/** A `whole` row as a bucket. */
export function bucketOfRow(r: BucketRow): Bucket {
  return {
    start: r[R.start],
    count: r[R.count],
    sum: r[R.sum],
    min: { value: r[R.minValue], ts: r[R.minTs], id: r[R.minId] },
    max: { value: r[R.maxValue], ts: r[R.maxTs], id: r[R.maxId] },
    first: { value: r[R.firstValue], ts: r[R.firstTs], id: r[R.firstId] },
    last: { value: r[R.lastValue], ts: r[R.lastTs], id: r[R.lastId] },
  };
}

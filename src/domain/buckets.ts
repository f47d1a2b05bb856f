/**
 * The time buckets of downsampling (`max_points`): the window's span is cut into equal buckets and
 * the store keeps each bucket's lowest and highest measurement, in time order, so peaks and troughs
 * survive — a single spike is the maximum of its bucket.
 */

/** Each bucket gives at most two points, so `maxPoints` points allow half as many buckets. */
export function bucketCount(maxPoints: number): number {
  return Math.max(1, Math.floor(maxPoints / 2));
}

/**
 * `count` equal spans of time over [first, last] (epoch ms, both inclusive). Every computation is
 * on whole numbers below 2^53, so the store's integer SQL and this code put a point in the same
 * bucket.
 */
export class BucketLayout {
  readonly span: number;
  constructor(
    readonly first: number,
    last: number,
    readonly count: number,
  ) {
    this.span = Math.max(1, last - first + 1);
  }

  /** The bucket of a timestamp within [first, last]. */
  of(timestamp: number): number {
    return Math.min(this.count - 1, Math.floor(((timestamp - this.first) * this.count) / this.span));
  }

  /** The first timestamp that falls in `bucket` (for `bucket = count`: just past `last`). */
  startOf(bucket: number): number {
    return this.first + Math.ceil((bucket * this.span) / this.count);
  }

  /**
   * Consecutive runs of buckets expected to hold about `rowsPerSlice` of the window's `rows` each,
   * as time ranges [start, end): the store downsamples a long window slice by slice, so no single
   * query holds the connection (or, on SQLite, the event loop) for long.
   */
  slices(rows: number, rowsPerSlice: number): { start: number; end: number }[] {
    const perSlice = Math.max(1, Math.floor((rowsPerSlice * this.count) / Math.max(1, rows)));
    const out = [];
    for (let b = 0; b < this.count; b += perSlice) {
      out.push({ start: this.startOf(b), end: this.startOf(Math.min(this.count, b + perSlice)) });
    }
    return out;
  }
}

/**
 * Downsampling that keeps the shape of a series: the time span is cut into buckets and each
 * bucket keeps its minimum and its maximum (in time order), so peaks and troughs survive — a
 * single spike is the maximum of its bucket. It consumes the points one by one in time order and
 * holds only the output, so it never needs the whole series in memory.
 */
export interface Point {
  timestamp: number;
}

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

/**
 * The streaming form of the store's `extremesPerBucket`: feed it the points in time order; ties
 * keep the earliest point.
 */
export function minMaxBuckets<T extends Point>(first: number, last: number, maxPoints: number, value: (p: T) => number) {
  const layout = new BucketLayout(first, last, bucketCount(maxPoints));
  const out: T[] = [];
  let bucket = -1;
  let min: T | undefined;
  let max: T | undefined;

  const flush = () => {
    if (!min || !max) return;
    if (min === max) out.push(min);
    else if (min.timestamp <= max.timestamp) out.push(min, max);
    else out.push(max, min);
  };

  return {
    add(point: T): void {
      const b = layout.of(point.timestamp);
      if (b !== bucket) {
        flush();
        bucket = b;
        min = max = point;
        return;
      }
      if (value(point) < value(min as T)) min = point;
      if (value(point) > value(max as T)) max = point;
    },
    finish(): T[] {
      flush();
      min = max = undefined;
      return out;
    },
  };
}

/** Downsamples a whole array (for callers that already hold it). */
export function downsample<T extends Point>(points: readonly T[], maxPoints: number, value: (p: T) => number): T[] {
  if (points.length <= maxPoints) return [...points];
  const sampler = minMaxBuckets<T>(points[0].timestamp, points[points.length - 1].timestamp, maxPoints, value);
  for (const p of points) sampler.add(p);
  return sampler.finish();
}

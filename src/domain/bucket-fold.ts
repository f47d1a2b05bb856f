import { bucketStart } from './bucket-sizes.js';
import { add, type MeasurementLike, merge, type Summary, summaryOf } from './bucket-summary.js';

/** A summary of one bucket: where it starts, and what it holds. */
export interface Bucket extends Summary {
  start: number;
}

/** Measurements grouped into buckets of `size`, in the order of their starts. */
export function bucketsOf(rows: Iterable<MeasurementLike>, size: number): Bucket[] {
  const byStart = new Map<number, Bucket>();
  for (const row of rows) {
    const start = bucketStart(row.timestamp, size);
    const bucket = byStart.get(start);
    if (bucket) add(bucket, row);
    else byStart.set(start, { start, ...summaryOf(row) });
  }
  return [...byStart.values()].sort((a, b) => a.start - b.start);
}

/** Buckets of a smaller size folded into buckets of `size` (a multiple of theirs), in order. */
export function foldBuckets(buckets: Iterable<Bucket>, size: number): Bucket[] {
  const out: Bucket[] = [];
  const byStart = new Map<number, Bucket>();
  for (const b of buckets) {
    const start = bucketStart(b.start, size);
    const into = byStart.get(start);
    if (into) byStart.set(start, { start, ...merge(into, b) });
    else byStart.set(start, { ...b, start });
  }
  out.push(...byStart.values());
  return out.sort((a, b) => a.start - b.start);
}

/**
 * Buckets of several sizes from measurements that arrive in time order (a walk over raw rows):
 * only the open bucket of each size is held, and each is handed to `emit` once the walk has
 * passed it, so memory stays flat however long the series.
 */
export function bucketStream(sizes: readonly number[], emit: (size: number, bucket: Bucket) => void) {
  const open = new Map<number, Bucket>();
  return {
    push(row: MeasurementLike): void {
      for (const size of sizes) {
        const start = bucketStart(row.timestamp, size);
        const bucket = open.get(size);
        if (bucket && bucket.start === start) add(bucket, row);
        else {
          if (bucket) emit(size, bucket);
          open.set(size, { start, ...summaryOf(row) });
        }
      }
    },
    end(): void {
      for (const [size, bucket] of open) emit(size, bucket);
      open.clear();
    },
  };
}

import { bucketStart } from '../domain/bucket-sizes.js';

/**
 * What the extremes of a bucket are read from: its start, count, and lowest and highest point,
 * as one array of numbers per kept bucket (in this order; the store reads exactly these columns).
 */
export type ExtremesRow = readonly number[];
export const E = { start: 0, count: 1, minValue: 2, minTs: 3, minId: 4, maxValue: 5, maxTs: 6, maxId: 7 } as const;

/** One stored measurement as an extremes row of its own: its time as the start, itself as lowest and highest. */
export function extremesRowOf(m: { measurement_id: number; value: number; timestamp: number }): ExtremesRow {
  return [m.timestamp, 1, m.value, m.timestamp, m.measurement_id, m.value, m.timestamp, m.measurement_id];
}

/** A point of a series: a stored measurement's id, time and value. */
export interface ExtremePoint {
  id: number;
  ts: number;
  value: number;
}

const earlier = (aTs: number, aId: number, bTs: number, bId: number) => aTs < bTs || (aTs === bTs && aId < bId);

/**
 * For each bucket of `size` (a multiple of the rows' size), its lowest and highest point among
 * the rows it holds, by the summary's total orders (value, then earliest, then lowest id), in
 * time order — one point when both are the same row. The same as folding whole buckets and taking
 * their min and max (`foldBuckets`), without a bucket object per row.
 */
export function extremesPerBucket(rows: readonly ExtremesRow[], size: number): ExtremePoint[] {
  const out: ExtremePoint[] = [];
  let start = Number.NaN;
  let lo: ExtremesRow | undefined;
  let hi: ExtremesRow | undefined;
  const flush = () => {
    if (!lo || !hi) return;
    const low = { id: lo[E.minId], ts: lo[E.minTs], value: lo[E.minValue] };
    const high = { id: hi[E.maxId], ts: hi[E.maxTs], value: hi[E.maxValue] };
    if (low.id === high.id) out.push(low);
    else if (earlier(low.ts, low.id, high.ts, high.id)) out.push(low, high);
    else out.push(high, low);
  };
  for (const row of rows) {
    const at = bucketStart(row[E.start], size);
    if (at !== start) {
      flush();
      start = at;
      lo = row;
      hi = row;
      continue;
    }
    const l = lo as ExtremesRow;
    const h = hi as ExtremesRow;
    const v = row[E.minValue];
    if (v < l[E.minValue] || (v === l[E.minValue] && earlier(row[E.minTs], row[E.minId], l[E.minTs], l[E.minId]))) lo = row;
    const w = row[E.maxValue];
    if (w > h[E.maxValue] || (w === h[E.maxValue] && earlier(row[E.maxTs], row[E.maxId], h[E.maxTs], h[E.maxId]))) hi = row;
  }
  flush();
  return out;
}

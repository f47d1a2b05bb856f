/**
 * Bucket arithmetic, in UTC: a bucket of size S starts at a multiple of S milliseconds since the
 * epoch, so 5-minute, hourly and daily buckets begin on the clock's 5 minutes, hours and UTC
 * midnights, and every kept bucket lies inside exactly one bucket of any multiple of its size.
 */
export const FIVE_MINUTES = 5 * 60_000;
export const HOUR = 60 * 60_000;
export const DAY = 24 * HOUR;

/** The sizes the store keeps, finest first. */
export const KEPT_SIZES = [FIVE_MINUTES, HOUR, DAY] as const;
export type KeptSize = (typeof KEPT_SIZES)[number];

/** The most buckets one answer may hold. */
export const MAX_BUCKETS = 100_000;

/** The start of the bucket of `size` holding `ms` (floor, also before 1970). */
export function bucketStart(ms: number, size: number): number {
  return Math.floor(ms / size) * size;
}

/** The first bucket boundary at or after `ms`. */
export function bucketCeil(ms: number, size: number): number {
  return Math.ceil(ms / size) * size;
}

/** The coarsest kept size that `size` is a multiple of, if any: a bucket of `size` is folded from it. */
export function keptSizeDividing(size: number): KeptSize | undefined {
  for (let i = KEPT_SIZES.length - 1; i >= 0; i--) if (size % KEPT_SIZES[i] === 0) return KEPT_SIZES[i];
  return undefined;
}

/**
 * The bucket size that cuts `spanMs` into at most `maxBuckets` buckets, as a multiple of the
 * coarsest kept size that still gives at least that many kept buckets (so the answer is folded
 * from the fewest rows that can give it); a span too short for any kept size gets a size in whole
 * milliseconds, computed from raw rows.
 */
export function sizeForBuckets(spanMs: number, maxBuckets: number): number {
  const wanted = Math.max(1, Math.ceil(spanMs / Math.max(1, maxBuckets)));
  let kept: number | undefined;
  for (const size of KEPT_SIZES) if (size <= wanted) kept = size;
  if (kept === undefined) return wanted;
  return Math.ceil(wanted / kept) * kept;
}

/** How many buckets of `size` the aligned range [start, end) holds. */
export function bucketsIn(start: number, end: number, size: number): number {
  return Math.max(0, (bucketCeil(end, size) - bucketStart(start, size)) / size);
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: HOUR, d: DAY, w: 7 * DAY };
const SHORT = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)$/i;

/**
 * A bucket size: the short forms charts use (`5m`, `1h`, `1d`, `30s`, `2w`), or any duration
 * `parseDuration` takes (ISO 8601, the Python forms, seconds). Milliseconds; undefined when it
 * is none of these.
 */
export function parseBucketSize(text: string, parseDuration: (text: string) => number | undefined): number | undefined {
  const short = SHORT.exec(text.trim());
  if (short) return Number(short[1]) * UNIT_MS[short[2].toLowerCase()];
  return parseDuration(text);
}

/**
 * A size that cuts [start, end) into at most `most` buckets aligned in UTC (see sizeForBuckets),
 * or undefined when none does: a single bucket cannot hold a window that crosses the epoch, a
 * boundary of every size.
 */
export function sizeFittingIn(start: number, end: number, most: number): number | undefined {
  let size = sizeForBuckets(end - start, most);
  // Alignment can add a bucket at each edge: grow by about 1 % (in whole kept sizes) until the aligned count fits.
  for (let step = 0; step < 2000; step++) {
    if (bucketsIn(start, end, size) <= most) return size;
    const unit = keptSizeDividing(size) ?? 1;
    size += Math.max(unit, Math.ceil(size / 100 / unit) * unit);
  }
  return undefined;
}

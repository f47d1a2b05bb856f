import { hasCalendarUnits, parseDuration } from '../domain/duration.js';
import { EARLIEST_INSTANT, LATEST_INSTANT, LONGEST_DURATION } from '../domain/instants.js';
import { bucketCeil, bucketStart, parseBucketSize } from '../domain/bucket-sizes.js';

/** Why a bucket size is refused, as a 422 of the `bucket` query field says it. */
export interface BucketSizeProblem {
  msg: string;
  type: string;
}

/**
 * The `bucket` of an aggregate in milliseconds, or why it is refused: not a duration, not a whole
 * positive number of milliseconds, in months or years (no fixed length: a month would silently be
 * 30 days), or longer than the span of the years 1 to 9999. `time_delta` keeps reading months and
 * years as 30 and 365 days; only a bucket, whose edges are answered, is held to a fixed length.
 */
export function readBucketSize(text: string): number | BucketSizeProblem {
  if (hasCalendarUnits(text)) {
    return {
      msg: 'Months and years have no fixed length and cannot size a bucket; give days instead (e.g. P30D, P365D)',
      type: 'value_error',
    };
  }
  const size = parseBucketSize(text, parseDuration);
  if (size === undefined || size < 1 || !Number.isInteger(size)) {
    return {
      msg: 'Input should be a positive duration in whole milliseconds (e.g. 5m, 1h, 1d, PT15M, 3600)',
      type: 'duration_parsing',
    };
  }
  if (size > LONGEST_DURATION) return { msg: 'A bucket should be at most the span of the years 1 to 9999', type: 'duration_too_long' };
  return size;
}

export const isBucketSizeProblem = (value: number | BucketSizeProblem): value is BucketSizeProblem => typeof value !== 'number';

/**
 * Why buckets of `size` covering [start, end) cannot be answered, if they cannot: the first would
 * start before the year 1 or the last end after the year 9999 (buckets align on multiples of
 * their size since 1970, so a long one reaches far beyond what it holds), dates the API refuses
 * everywhere else.
 */
export function bucketsBeyondYears(start: number, end: number, size: number): BucketSizeProblem | undefined {
  const from = bucketStart(start, size);
  const to = bucketCeil(end, size);
  if (from >= EARLIEST_INSTANT && to <= LATEST_INSTANT) return undefined;
  const early = from < EARLIEST_INSTANT;
  return {
    msg:
      'Buckets of this size would start before the year 1 or end after the year 9999 ' +
      `(${early ? 'the first would start' : 'the last would end'} ${yearOf(early ? from : to)}); give a smaller bucket`,
    type: 'value_error',
  };
}

/** Where an instant beyond the years 1 to 9999 lies, in words (ISO text has no four-digit year for it). */
function yearOf(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? 'beyond any date' : `in the year ${date.getUTCFullYear()}`;
}

import { bucketStart, DAY } from '../domain/bucket-sizes.js';

/** What retention keeps: durations in ms, undefined for forever. */
export interface RetentionPolicy {
  rawMs?: number;
  fiveMinuteMs?: number;
}

/** Before these instants (epoch ms), raw rows and 5-minute buckets are retired. */
export interface RetentionCutoffs {
  raw?: number;
  fiveMinute?: number;
}

/**
 * The cutoffs at `now`, rounded down to a UTC midnight: a cutoff on a day boundary is a boundary
 * of every kept size, so each bucket is either wholly before it (its raw rows retired, the bucket
 * the permanent record) or wholly after it (exact, recomputable from raw rows). The 5-minute
 * buckets are never retired before the raw rows they summarize.
 */
export function retentionCutoffs(policy: RetentionPolicy, now: number): RetentionCutoffs {
  const raw = policy.rawMs === undefined ? undefined : bucketStart(now - policy.rawMs, DAY);
  let fiveMinute = policy.fiveMinuteMs === undefined ? undefined : bucketStart(now - policy.fiveMinuteMs, DAY);
  if (fiveMinute !== undefined) fiveMinute = raw === undefined ? undefined : Math.min(fiveMinute, raw);
  return { raw, fiveMinute };
}

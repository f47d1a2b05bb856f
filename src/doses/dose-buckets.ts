/**
 * Dose totals per bucket (docs/api.md §15): how many doses, how many seconds of run and how many
 * millilitres went in per UTC hour or day. As the history's buckets (§10, domain/bucket-sizes.ts),
 * they start on the clock's hours and UTC midnights and are answered whole: a bucket that overlaps
 * the window counts every dose it holds, and its start and end say which. A bucket without doses
 * is left out.
 */
import { bucketCeil, bucketStart, DAY, HOUR, parseBucketSize } from '../domain/bucket-sizes.js';
import { parseDuration } from '../domain/duration.js';
import type { TimeWindow } from '../domain/time-window.js';

/** The bucket sizes the totals answer. */
export const DOSE_BUCKET_SIZES = [HOUR, DAY] as const;

/** What a dose adds to its bucket. */
export interface DoseAmount {
  activated_at: number;
  duration: number;
  /** null: a dose recorded without a flow, of unknown volume. */
  volume_ml: number | null;
}

export interface DoseBucket {
  start: number;
  end: number;
  doses: number;
  seconds: number;
  /** The volumes of the doses that have one; null when none of the bucket's doses has. */
  volume_ml: number | null;
}

/** `1h` or `1d` (or the same length written otherwise: `PT1H`, `P1D`, `3600`, `86400`) in milliseconds; undefined for anything else. */
export function doseBucketSize(text: string): number | undefined {
  const size = parseBucketSize(text, parseDuration);
  return DOSE_BUCKET_SIZES.find((kept) => kept === size);
}

/** The window widened to the whole buckets it overlaps: what the totals read. */
export function wholeBuckets(window: TimeWindow, size: number): TimeWindow {
  const { start, end, endInclusive } = window;
  return {
    start: start === undefined ? undefined : bucketStart(start, size),
    end: end === undefined ? undefined : endInclusive ? bucketStart(end, size) + size : bucketCeil(end, size),
    endInclusive: false,
  };
}

/** Sums of run times and volumes, rid of binary noise (0.1 + 0.2), to six decimals. */
const sixDecimals = (x: number) => Math.round(x * 1e6) / 1e6;

/**
 * Adds doses, given oldest first (and after those added before), to `buckets`, which stays
 * ascending. Called page by page, so that a long history is never held whole.
 */
export function addDoses(buckets: DoseBucket[], doses: readonly DoseAmount[], size: number): void {
  for (const dose of doses) {
    const start = bucketStart(dose.activated_at, size);
    let last = buckets.at(-1);
    if (last === undefined || last.start !== start) {
      last = { start, end: start + size, doses: 0, seconds: 0, volume_ml: null };
      buckets.push(last);
    }
    last.doses += 1;
    last.seconds = sixDecimals(last.seconds + dose.duration);
    // A volume the store holds that is not finite is not known: it adds nothing, as a dose without a flow.
    if (dose.volume_ml !== null && Number.isFinite(dose.volume_ml)) last.volume_ml = sixDecimals((last.volume_ml ?? 0) + dose.volume_ml);
  }
}

/** The totals of doses given oldest first. */
export function doseBuckets(doses: readonly DoseAmount[], size: number): DoseBucket[] {
  const buckets: DoseBucket[] = [];
  addDoses(buckets, doses, size);
  return buckets;
}

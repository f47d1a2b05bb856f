import type pg from 'pg';
import { type Bucket, foldBuckets } from '../../domain/bucket-fold.js';
import { type BucketRead, bucketOfRow, type BucketRow } from '../../domain/bucket-rows.js';
import { bucketStart, DAY, FIVE_MINUTES, HOUR } from '../../domain/bucket-sizes.js';
import { type BUCKET_COLUMNS, BUCKET_READS, bucketRow, floorTo } from '../history-sql.js';

/** Every column of a bucket but its sensor and size: a `whole` row. */
const WHOLE = BUCKET_READS.whole.join(', ');
const NULLS = BUCKET_READS.whole.map(() => 'null').join(', ');

/** A bucket as a row of the columns `read` asks for. */
function rowOf(b: Bucket, read: BucketRead): number[] {
  const field = bucketRow(0, 0, b, undefined) as Record<(typeof BUCKET_COLUMNS)[number], number>;
  return BUCKET_READS[read].map((c) => field[c]);
}

/**
 * One statement, one snapshot: the stored buckets of `size` in [from, to) (kind 0), the noted
 * hours among them (kind 1), the 5-minute buckets of those hours (kind 2) and, for daily reads,
 * the stored hourly buckets of the days holding a noted hour (kind 3).
 */
const COARSE_READ = `with p as (select hour_ms from history_pending where sensor_id = $1 and hour_ms >= $3 and hour_ms < $4)
select 0 as kind, ${WHOLE} from history_buckets where sensor_id = $1 and size_ms = $2 and start_ms >= $3 and start_ms < $4
union all select 1, hour_ms, ${NULLS.slice(6)} from p
union all select 2, ${WHOLE} from history_buckets where sensor_id = $1 and size_ms = ${FIVE_MINUTES} and start_ms >= $3 and start_ms < $4
  and ${floorTo('start_ms', HOUR)} in (select hour_ms from p)
union all select 3, ${WHOLE} from history_buckets where $2 = ${DAY} and sensor_id = $1 and size_ms = ${HOUR} and start_ms >= $3 and start_ms < $4
  and ${floorTo('start_ms', DAY)} in (select ${floorTo('hour_ms', DAY)} from p)`;

/**
 * Hourly and daily buckets as readers must see them on PostgreSQL, where ingest writes only the
 * 5-minute ones and notes the hour (history_pending) until the rollup folds it: a noted hour is
 * folded here from its 5-minute buckets, and a day holding one from its hours. What a read answers
 * is then every committed row, whether the rollup has come by or not.
 */
export async function coarseBucketRows(
  pool: pg.Pool,
  read: BucketRead,
  sensorId: number,
  size: number,
  from: number,
  to: number,
): Promise<BucketRow[]> {
  const { rows } = await pool.query<number[]>({ text: COARSE_READ, values: [sensorId, size, from, to], rowMode: 'array' as const });
  const stored: number[][] = [];
  const pendingHours = new Set<number>();
  const fine: Bucket[] = [];
  const hoursOfPendingDays: Bucket[] = [];
  for (const row of rows) {
    const kind = row[0];
    const whole = row.slice(1).map(Number);
    if (kind === 0) stored.push(whole);
    else if (kind === 1) pendingHours.add(whole[0]);
    else if (kind === 2) fine.push(bucketOfRow(whole));
    else hoursOfPendingDays.push(bucketOfRow(whole));
  }
  if (pendingHours.size === 0) return stored.map((w) => project(w, read));
  const foldedHours = foldBuckets(fine, HOUR);
  let replaced: Bucket[];
  let pendingStarts: Set<number>;
  if (size === HOUR) {
    replaced = foldedHours;
    pendingStarts = pendingHours;
  } else {
    pendingStarts = new Set([...pendingHours].map((h) => bucketStart(h, DAY)));
    const hours = [...hoursOfPendingDays.filter((h) => !pendingHours.has(h.start)), ...foldedHours].sort((a, b) => a.start - b.start);
    replaced = foldBuckets(hours, DAY);
  }
  const out: BucketRow[] = stored.filter((w) => !pendingStarts.has(w[0])).map((w) => project(w, read));
  for (const b of replaced) out.push(rowOf(b, read));
  return out.sort((a, b) => a[0] - b[0]);
}

/** A `whole` row cut to the columns of `read`. */
function project(whole: number[], read: BucketRead): BucketRow {
  if (read === 'whole') return whole;
  return BUCKET_READS[read].map((c) => whole[BUCKET_READS.whole.indexOf(c as (typeof BUCKET_READS.whole)[number])]);
}

/** A stamp no stored day has: a day holding a noted hour is never taken as unchanged. */
let changing = 0;

/**
 * The stamps of a sensor's days in [from, to), as [start, stamp] pairs in time order: the daily
 * buckets' own, and for a day holding a noted hour (stored or not yet) a stamp never seen before,
 * so a reader that kept the day reads it again.
 */
export async function dayStampsWithPending(pool: pg.Pool, sensorId: number, from: number, to: number): Promise<[number, number][]> {
  const { rows } = await pool.query<[number, number, boolean]>({
    text: `select start_ms, stamp, false from history_buckets where sensor_id = $1 and size_ms = ${DAY} and start_ms >= $2 and start_ms < $3
      union all select distinct ${floorTo('hour_ms', DAY)}, 0, true from history_pending where sensor_id = $1 and hour_ms >= $2 and hour_ms < $3`,
    values: [sensorId, from, to],
    rowMode: 'array' as const,
  });
  const stamps = new Map<number, number>();
  for (const [start, stamp, pending] of rows) {
    const day = Number(start);
    if (pending) stamps.set(day, -1 - (changing++ % 2 ** 40));
    else if (!stamps.has(day)) stamps.set(day, Number(stamp));
  }
  return [...stamps.entries()].sort((a, b) => a[0] - b[0]);
}

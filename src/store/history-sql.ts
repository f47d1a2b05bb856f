import { randomInt } from 'node:crypto';
import type { Insertable, Selectable } from 'kysely';
import type { Bucket } from '../history/fold.js';
import type { HistoryBucketTable } from './database.js';

/** The bucket table's columns in the order the ingest upserts bind them. */
export const BUCKET_COLUMNS = [
  'sensor_id',
  'size_ms',
  'start_ms',
  'row_count',
  'value_sum',
  'min_value',
  'min_ts',
  'min_id',
  'max_value',
  'max_ts',
  'max_id',
  'first_value',
  'first_ts',
  'first_id',
  'last_value',
  'last_ts',
  'last_id',
] as const;

/** `new` comes before `old` in the order that decides a point (value, then timestamp, then id). */
function before(point: string, valueOrder: '<' | '>' | null, tsOrder: '<' | '>'): string {
  const n = (c: string) => `excluded.${point}_${c}`;
  const o = (c: string) => `b.${point}_${c}`;
  const byTime = `(${n('ts')} ${tsOrder} ${o('ts')} or (${n('ts')} = ${o('ts')} and ${n('id')} ${tsOrder} ${o('id')}))`;
  if (valueOrder === null) return byTime;
  return `(${n('value')} ${valueOrder} ${o('value')} or (${n('value')} = ${o('value')} and ${byTime}))`;
}

function pick(point: string, condition: string): string {
  return ['value', 'ts', 'id']
    .map((c) => `${point}_${c} = case when ${condition} then excluded.${point}_${c} else b.${point}_${c} end`)
    .join(', ');
}

/**
 * The merge of a bucket summary into the stored one, as the `on conflict` clause of an upsert
 * into `history_buckets as b`: the SQL twin of `merge` in src/history/summary.ts, the same on both
 * stores.
 */
export const MERGE_ON_CONFLICT =
  'on conflict (sensor_id, size_ms, start_ms) do update set ' +
  [
    'row_count = b.row_count + excluded.row_count',
    'value_sum = b.value_sum + excluded.value_sum',
    pick('min', before('min', '<', '<')),
    pick('max', before('max', '>', '<')),
    pick('first', before('first', null, '<')),
    pick('last', before('last', null, '>')),
    'stamp = excluded.stamp',
  ].join(', ');

/** The columns an ingest upsert binds: the bucket's, then the commit's stamp. */
export const STAMPED_BUCKET_COLUMNS = [...BUCKET_COLUMNS, 'stamp'] as const;

/**
 * A fresh stamp for the bucket rows one transaction writes: random, so that writers in several
 * processes never draw the same, and never 0 (the stamp of rows older than stamps).
 */
export const newBucketStamp = (): number => randomInt(1, 2 ** 48 - 1);

/** A bucket as a row of the table, written with `stamp` (none: the schema before stamps). */
export function bucketRow(sensorId: number, size: number, b: Bucket, stamp: number | undefined): Insertable<HistoryBucketTable> {
  return {
    sensor_id: sensorId,
    size_ms: size,
    start_ms: b.start,
    row_count: b.count,
    value_sum: b.sum,
    min_value: b.min.value,
    min_ts: b.min.ts,
    min_id: b.min.id,
    max_value: b.max.value,
    max_ts: b.max.ts,
    max_id: b.max.id,
    first_value: b.first.value,
    first_ts: b.first.ts,
    first_id: b.first.id,
    last_value: b.last.value,
    last_ts: b.last.ts,
    last_id: b.last.id,
    ...(stamp === undefined ? {} : { stamp }),
  };
}

/** A row of the table as a bucket. */
export function bucketOf(r: Selectable<HistoryBucketTable>): Bucket {
  return {
    start: Number(r.start_ms),
    count: Number(r.row_count),
    sum: r.value_sum,
    min: { value: r.min_value, ts: Number(r.min_ts), id: Number(r.min_id) },
    max: { value: r.max_value, ts: Number(r.max_ts), id: Number(r.max_id) },
    first: { value: r.first_value, ts: Number(r.first_ts), id: Number(r.first_id) },
    last: { value: r.last_value, ts: Number(r.last_ts), id: Number(r.last_id) },
  };
}

/**
 * What a read of buckets answers, as one array of numbers per bucket (no object per row: a year
 * of hourly buckets is 8,760 of them): `whole` buckets (every column but the sensor and the size),
 * only the `values` an aggregate answer shows, or the `extremes` max_points answers (half the
 * columns to read).
 */
export const BUCKET_READS = {
  whole: BUCKET_COLUMNS.slice(2),
  values: ['start_ms', 'row_count', 'value_sum', 'min_value', 'max_value', 'first_value', 'last_value'],
  /** In the order of src/history/extremes.ts. */
  extremes: ['start_ms', 'row_count', 'min_value', 'min_ts', 'min_id', 'max_value', 'max_ts', 'max_id'],
} as const satisfies Record<string, readonly (typeof BUCKET_COLUMNS)[number][]>;
export type BucketRead = keyof typeof BUCKET_READS;
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

/** The statement of a read (`?` placeholders; PostgreSQL numbers its own). */
export const bucketReadSql = (read: BucketRead) =>
  `select ${BUCKET_READS[read].join(', ')} from history_buckets ` +
  'where sensor_id = ? and size_ms = ? and start_ms >= ? and start_ms < ? order by start_ms';

/** A row of the read as a bucket. */
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

/** The stamps of a sensor's daily buckets starting in [from, to), as [start, stamp] pairs in time order. */
export const dayStampsSql =
  'select start_ms, stamp from history_buckets where sensor_id = ? and size_ms = ? and start_ms >= ? and start_ms < ? order by start_ms';

import { randomInt } from 'node:crypto';
import type { Insertable, Selectable } from 'kysely';
import type { Bucket } from '../domain/bucket-fold.js';
import type { BucketRead } from '../domain/bucket-rows.js';
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

/** A point's fields, by the suffix of their columns (`min_value`, `min_ts`, `min_id`). */
type PointField = 'value' | 'ts' | 'id';
type PointName = 'min' | 'max' | 'first' | 'last';

/**
 * The order that picks each point of a bucket: the point is the first row in it. The SQL of the
 * buckets is written from this table (the merge below, ingest's PostgreSQL statement in
 * postgres/hot-paths.ts, the PostgreSQL migration in migrations/history-buckets-sql.ts);
 * src/domain/bucket-summary.ts is the reference it restates (test/unit/point-orders.test.ts
 * compares them), kept hand-written there because ingest runs it for every row.
 */
export const POINT_ORDERS: Record<PointName, readonly (readonly [PointField, 'asc' | 'desc'])[]> = {
  min: [
    ['value', 'asc'],
    ['ts', 'asc'],
    ['id', 'asc'],
  ],
  max: [
    ['value', 'desc'],
    ['ts', 'asc'],
    ['id', 'asc'],
  ],
  first: [
    ['ts', 'asc'],
    ['id', 'asc'],
  ],
  last: [
    ['ts', 'desc'],
    ['id', 'desc'],
  ],
};
const POINTS = Object.keys(POINT_ORDERS) as PointName[];
const FIELDS: readonly PointField[] = ['value', 'ts', 'id'];

/** Condition that `a` comes before `b` in `order` (columns named by `a` and `b`). */
function comesBefore(order: (typeof POINT_ORDERS)[PointName], a: (f: PointField) => string, b: (f: PointField) => string): string {
  const [[field, direction], ...rest] = order;
  const less = `${a(field)} ${direction === 'asc' ? '<' : '>'} ${b(field)}`;
  return rest.length === 0 ? less : `(${less} or (${a(field)} = ${b(field)} and ${comesBefore(rest, a, b)}))`;
}

/**
 * The merge of a bucket summary into the stored one, as the `on conflict` clause of an upsert
 * into `history_buckets as b`: the SQL twin of `merge` in src/domain/bucket-summary.ts, the same on both
 * stores.
 */
export const MERGE_ON_CONFLICT =
  'on conflict (sensor_id, size_ms, start_ms) do update set ' +
  [
    'row_count = b.row_count + excluded.row_count',
    'value_sum = b.value_sum + excluded.value_sum',
    ...POINTS.map((point) => {
      const newer = comesBefore(
        POINT_ORDERS[point],
        (f) => `excluded.${point}_${f}`,
        (f) => `b.${point}_${f}`,
      );
      return FIELDS.map((f) => `${point}_${f} = case when ${newer} then excluded.${point}_${f} else b.${point}_${f} end`).join(', ');
    }),
    'stamp = excluded.stamp',
  ].join(', ');

/** How the raw rows a PostgreSQL statement summarizes name a point's fields. */
export type RowColumns = Record<PointField, string>;

/**
 * PostgreSQL: the twelve point columns of a group of raw rows (`<point>_<field>`, in the table's
 * order), each the first of the group's rows in its point's order. Exact in every type; it sorts
 * each group, which suits ingest's commits of a few rows per bucket.
 */
export function pointsByArrayAgg(columns: RowColumns): string {
  return POINTS.flatMap((point) => {
    const order = POINT_ORDERS[point].map(([f, direction]) => columns[f] + (direction === 'desc' ? ' desc' : '')).join(', ');
    return FIELDS.map((f) => `(array_agg(${columns[f]} order by ${order}))[1] as ${point}_${f}`);
  }).join(', ');
}

/**
 * PostgreSQL: the same points in one pass without sorting, for buckets of many rows (the
 * migration): each point is the least or greatest of an array that orders the rows as the
 * point's order does (arrays compare element by element; a field ordered against the first is
 * negated), the fields it does not order by carried after. The columns must share one type
 * (double precision: epoch ms and ids are exact in it). `aggregates` computes the arrays (as
 * `<alias>`), `fields` reads the twelve point columns from them.
 */
export function pointsByArrayExtremes(columns: RowColumns, aliases: Record<PointName, string>): { aggregates: string; fields: string } {
  const layouts = POINTS.map((point) => {
    const order = POINT_ORDERS[point];
    const leading = order[0][1];
    const elements = [...order.map(([f, direction]) => ({ f, negated: direction !== leading }))];
    for (const f of FIELDS) if (!elements.some((e) => e.f === f)) elements.push({ f, negated: false });
    return { alias: aliases[point], aggregate: leading === 'asc' ? 'min' : 'max', elements };
  });
  const aggregates = layouts
    .map(
      ({ alias, aggregate, elements }) =>
        `${aggregate}(array[${elements.map((e) => (e.negated ? '-' : '') + columns[e.f]).join(', ')}]) as ${alias}`,
    )
    .join(',\n        ');
  const fields = layouts
    .map(({ alias, elements }) =>
      FIELDS.map((f) => {
        const i = elements.findIndex((e) => e.f === f);
        return `(${elements[i].negated ? '-' : ''}${alias}[${i + 1}])::${f === 'value' ? 'float8' : 'int8'}`;
      }).join(', '),
    )
    .join(',\n      ');
  return { aggregates, fields };
}

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
 * The columns of each read (see `BucketRead`), in the positions src/domain/bucket-rows.ts gives
 * them: `whole` every column but the sensor and the size (`R`), `values` those of `V`, `extremes`
 * those of src/history/extremes.ts.
 */
export const BUCKET_READS = {
  whole: BUCKET_COLUMNS.slice(2),
  values: ['start_ms', 'row_count', 'value_sum', 'min_value', 'max_value', 'first_value', 'last_value'],
  extremes: ['start_ms', 'row_count', 'min_value', 'min_ts', 'min_id', 'max_value', 'max_ts', 'max_id'],
} as const satisfies Record<BucketRead, readonly (typeof BUCKET_COLUMNS)[number][]>;

/** The statement of a read (`?` placeholders; PostgreSQL numbers its own). */
export const bucketReadSql = (read: BucketRead) =>
  `select ${BUCKET_READS[read].join(', ')} from history_buckets ` +
  'where sensor_id = ? and size_ms = ? and start_ms >= ? and start_ms < ? order by start_ms';

/** The stamps of a sensor's daily buckets starting in [from, to), as [start, stamp] pairs in time order. */
export const dayStampsSql =
  'select start_ms, stamp from history_buckets where sensor_id = ? and size_ms = ? and start_ms >= ? and start_ms < ? order by start_ms';

/**
 * PostgreSQL: the twelve point columns of a group of bucket rows folded into one (`<point>_<field>`,
 * in the table's order), each point the first of the group's own points in its order.
 */
export function pointsOfBuckets(alias = ''): string {
  const col = (point: PointName, f: PointField) => `${alias}${point}_${f}`;
  return POINTS.flatMap((point) => {
    const order = POINT_ORDERS[point].map(([f, direction]) => col(point, f) + (direction === 'desc' ? ' desc' : '')).join(', ');
    return FIELDS.map((f) => `(array_agg(${col(point, f)} order by ${order}))[1] as ${point}_${f}`);
  }).join(', ');
}

/** PostgreSQL: the start of the bucket of `size` (ms) holding the epoch-ms expression, rounded toward −∞ as bucketStart does. */
export const floorTo = (expr: string, size: number): string => `(${expr} - (((${expr} % ${size}::int8) + ${size}::int8) % ${size}::int8))`;

import { type RawBuilder, sql } from 'kysely';
import { FIVE_MINUTES } from '../../domain/bucket-sizes.js';
import type { StoreKind } from '../dialect.js';
import { BUCKET_COLUMNS, pointsByArrayExtremes } from '../history-sql.js';

/**
 * The statements that build history buckets for stored measurements inside the store, one
 * `insert … select … group by` per size for a range of one sensor, rather than each row read into
 * JavaScript. They give what `src/domain/bucket-summary.ts` defines, point for point:
 * - the 5-minute buckets from the raw rows (each store its own way, below);
 * - an hour from its 5-minute buckets and a day from its hours (the same SQL on both stores),
 *   which is exact: each field of a summary is decided by a total order, and the sum and count add up.
 *
 * PostgreSQL's points are written from `POINT_ORDERS` (history-sql.ts), as ingest's statement and
 * the merge are. SQLite's and the folds spell the orders out: SQLite has no arrays to compare,
 * so its points come from packed keys and look-ups, and a fold picks among whole finer buckets
 * (the earliest holding the extreme value), which no row order expresses. The migration tests
 * (test/store/history-migration*.test.ts) hold both to src/domain/bucket-summary.ts.
 */

/** SQLite: a point's place in its 5-minute bucket packed with its id: (ms − start) · 2^40 + id. */
const ID_BITS = 40;
/** The ids the packing takes (every store this service wrote for years to come: a trillion rows). */
export const PACKED_ID_LIMIT = 2 ** ID_BITS;

const columns = sql.raw(BUCKET_COLUMNS.join(', '));
/** `x` floored to a multiple of `size`, for negative `x` too (`%` truncates on both stores). */
const floorTo = (x: string, size: number) => sql.raw(`(${x} - ((${x} % ${size}) + ${size}) % ${size})`);

/**
 * SQLite: one grouped pass over the sensor's rows in the range (index order) gives count, sum,
 * the lowest and highest value, and the first and last point as packed keys (the lowest and
 * highest (offset, id)); the point of the lowest and of the highest value is then the first among
 * the bucket's rows holding that value (a look over its few rows by the index), and the values of
 * the first and last points are read by id. (SQLite's min() and max() pick the row of their bare
 * columns arbitrarily among ties, so they cannot give the points themselves.)
 */
function sqliteFiveMinutes(sensorId: number, from: number, to: number): RawBuilder<unknown> {
  const size = FIVE_MINUTES;
  const unit = 2 ** ID_BITS;
  const mask = unit - 1;
  // A bucket of one row (most of a sparse series) is that row four times over: nothing to look up.
  const pointOfValue = (value: string) =>
    sql.raw(
      `case when g.n = 1 then g.fk else (select min((m.timestamp - g.start) * ${unit} + m.measurement_id) from measurements m ` +
        `where m.sensor_id = g.sensor_id and m.timestamp >= g.start and m.timestamp < g.start + ${size} and m.value = g.${value}) end`,
    );
  const valueOf = (key: string) =>
    sql.raw(`case when n = 1 then lo else (select value from measurements where measurement_id = ${key} & ${mask}) end`);
  const point = (key: string) => sql.raw(`start + (${key} >> ${ID_BITS}), ${key} & ${mask}`);
  return sql`insert into history_buckets (${columns})
    with g as materialized (
      select sensor_id, start, count(*) as n, sum(value) as s, min(value) as lo, max(value) as hi,
        min(${sql.raw(`(timestamp - start) * ${unit}`)} + measurement_id) as fk,
        max(${sql.raw(`(timestamp - start) * ${unit}`)} + measurement_id) as lk
      from (
        select sensor_id, value, measurement_id, timestamp, ${floorTo('timestamp', size)} as start
        from measurements where sensor_id = ${sensorId} and timestamp >= ${from} and timestamp < ${to}
      )
      group by sensor_id, start
    ),
    k as materialized (select g.*, ${pointOfValue('lo')} as mk, ${pointOfValue('hi')} as xk from g)
    select sensor_id, ${size}, start, n, s,
      lo, ${point('mk')}, hi, ${point('xk')},
      ${valueOf('fk')}, ${point('fk')}, ${valueOf('lk')}, ${point('lk')}
    from k`;
}

/**
 * PostgreSQL: one grouped pass; each point is the least or greatest of an array that orders the
 * rows as the point's order does (`pointsByArrayExtremes`; epoch ms and ids are exact in a
 * double): the lowest value, then earliest, then lowest id; the highest value, then earliest
 * (negated), then lowest id (negated); first and last by (timestamp, id), the value carried after.
 * Ingest's statement picks the same points by sorting each group (`pointsByArrayAgg`): the two
 * share the orders, each keeps the form it was tuned in.
 */
function postgresFiveMinutes(sensorId: number, from: number, to: number): RawBuilder<unknown> {
  const size = FIVE_MINUTES;
  const at = (ms: number) => sql`timestamptz 'epoch' + ${ms}::int8 * interval '1 millisecond'`;
  const points = pointsByArrayExtremes(
    { value: 'value', ts: 'ms', id: 'measurement_id' },
    { min: 'lo', max: 'hi', first: 'fp', last: 'lp' },
  );
  return sql`insert into history_buckets (${columns})
    select sensor_id, ${size}::int8, start, n, s,
      ${sql.raw(points.fields)}
    from (
      select sensor_id, start, count(*) as n, sum(value) as s,
        ${sql.raw(points.aggregates)}
      from (
        select sensor_id, value, measurement_id::float8 as measurement_id, ms::float8 as ms, ${floorTo('ms', size)} as start
        from (
          select sensor_id, value, measurement_id, (extract(epoch from timestamp) * 1000)::int8 as ms
          from measurements where sensor_id = ${sensorId} and timestamp >= ${at(from)} and timestamp < ${at(to)}
        ) as r
      ) as p
      group by sensor_id, start
    ) as g`;
}

/** The 5-minute buckets of one sensor's rows in [from, to) (epoch ms, whole buckets), from the raw rows. */
export function fiveMinuteBucketsSql(kind: StoreKind, sensorId: number, from: number, to: number): RawBuilder<unknown> {
  return kind === 'sqlite' ? sqliteFiveMinutes(sensorId, from, to) : postgresFiveMinutes(sensorId, from, to);
}

/**
 * The buckets of `size` of one sensor in [from, to) (whole buckets of `size`), folded from its
 * stored buckets of `finer`. The finer buckets of one bucket cover disjoint spans in time order,
 * so among those holding the lowest (highest) value the earliest holds the bucket's point; the
 * first point is the earliest finer bucket's first, the last the latest one's last. One grouped
 * pass finds those values and starts, then each point is read from its finer bucket by key.
 */
export function foldedBucketsSql(size: number, finer: number, sensorId: number, from: number, to: number): RawBuilder<unknown> {
  const child = (alias: string, start: string) =>
    sql.raw(
      `join history_buckets ${alias} on ${alias}.sensor_id = g.sensor_id and ${alias}.size_ms = ${finer} and ${alias}.start_ms = ${start}`,
    );
  const earliestHolding = (column: string, value: string) =>
    `(select min(c.start_ms) from history_buckets c where c.sensor_id = g.sensor_id and c.size_ms = ${finer} ` +
    `and c.start_ms >= g.start and c.start_ms < g.start + ${size} and c.${column} = g.${value})`;
  return sql`insert into history_buckets (${columns})
    with g as materialized (
      select sensor_id, start, sum(row_count) as n, sum(value_sum) as s, min(min_value) as lo, max(max_value) as hi,
        min(start_ms) as fs, max(start_ms) as ls
      from (
        select sensor_id, start_ms, row_count, value_sum, min_value, max_value, ${floorTo('start_ms', size)} as start
        from history_buckets where sensor_id = ${sensorId} and size_ms = ${finer} and start_ms >= ${from} and start_ms < ${to}
      ) as b
      group by sensor_id, start
    )
    select g.sensor_id, cast(${size} as integer), g.start, g.n, g.s,
      mn.min_value, mn.min_ts, mn.min_id, mx.max_value, mx.max_ts, mx.max_id,
      f.first_value, f.first_ts, f.first_id, l.last_value, l.last_ts, l.last_id
    from g
    ${child('mn', earliestHolding('min_value', 'lo'))}
    ${child('mx', earliestHolding('max_value', 'hi'))}
    ${child('f', 'g.fs')}
    ${child('l', 'g.ls')}`;
}

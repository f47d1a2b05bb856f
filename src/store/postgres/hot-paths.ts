import type pg from 'pg';
import { DAY, KEPT_SIZES } from '../../domain/bucket-sizes.js';
import type { BucketRead, BucketRow } from '../../domain/bucket-rows.js';
import {
  bucketReadSql,
  dayStampsSql,
  MERGE_ON_CONFLICT,
  newBucketStamp,
  pointsByArrayAgg,
  STAMPED_BUCKET_COLUMNS,
} from '../history-sql.js';
import type { NewMeasurement, StoredActuator, StoredMeasurement } from '../database.js';

/** A statement with `?` placeholders in PostgreSQL's numbered form. */
function numbered(text: string): string {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}

/**
 * The hottest statements on PostgreSQL as named prepared statements: each connection parses and
 * plans them once, and they skip the query builder's per-call work. Ingest sends a batch as three
 * arrays, one statement whatever its size.
 */
export function postgresHotPaths(pool: pg.Pool) {
  const last = {
    name: 'sensorhub_last_measurement',
    text: 'select measurement_id, sensor_id, value, timestamp from measurements where sensor_id = $1 order by timestamp desc, measurement_id desc limit 1',
  };
  const actuator = { name: 'sensorhub_actuator', text: 'select * from actuators where actuator_id = $1' };
  // Timestamps go in as epoch milliseconds (exact interval arithmetic, no date text to format),
  // and only the ids come back: the rest of each row is what was sent. The same statement adds
  // the rows to their history buckets (one upsert row per bucket touched, in key order so that
  // concurrent commits lock shared buckets in the same order), so both commit together.
  //
  // Before anything is written, the statement keeps its sensors from deletion (`for key share`,
  // in id order): a delete locks the sensors first too (for update, in id order), and then their
  // buckets, so the two queue on the sensor rows instead of deadlocking on the buckets (the
  // foreign key checks alone would take the sensor locks last, at the end of the statement). The
  // count is an aggregate, finished (every lock taken) before the insert reads its first row; a
  // sensor a delete took meanwhile is simply not counted, and its rows then fail the foreign key
  // (the whole statement writes nothing), which ingest answers with a 404.
  const insert = {
    name: 'sensorhub_insert_measurements_history',
    text:
      'with kept as materialized (select count(*) as sensors from (select sensor_id from sensors ' +
      'where sensor_id = any($1::integer[]) order by sensor_id for key share) as locked), ' +
      'ins as (insert into measurements (sensor_id, value, timestamp) ' +
      "select s, v, timestamptz 'epoch' + ms * interval '1 millisecond' " +
      'from unnest($1::integer[], $2::double precision[], $3::bigint[]) with ordinality as t(s, v, ms, n) cross join kept ' +
      'order by n returning measurement_id, sensor_id, value, (extract(epoch from timestamp) * 1000)::int8 as ms), ' +
      'sized as (select ins.*, z.size, ms - (((ms % z.size) + z.size) % z.size) as start ' +
      `from ins cross join (values ${KEPT_SIZES.map((s) => `(${s}::int8)`).join(', ')}) as z(size)), ` +
      'up as (insert into history_buckets as b (' +
      STAMPED_BUCKET_COLUMNS.join(', ') +
      ') ' +
      'select sensor_id, size, start, count(*), sum(value), ' +
      pointsByArrayAgg({ value: 'value', ts: 'ms', id: 'measurement_id' }) +
      ', $4::int8' +
      ' from sized group by sensor_id, size, start order by sensor_id, size, start ' +
      MERGE_ON_CONFLICT +
      ') ' +
      'select measurement_id from ins',
  };

  const bucketRead = (read: BucketRead) => ({
    name: `sensorhub_bucket_rows_${read}`,
    text: numbered(bucketReadSql(read)),
    rowMode: 'array',
  });
  const bucketReads = { whole: bucketRead('whole'), values: bucketRead('values'), extremes: bucketRead('extremes') };
  const dayStamps = { name: 'sensorhub_day_stamps', text: numbered(dayStampsSql), rowMode: 'array' };

  return {
    /** A sensor's kept buckets of `size` starting in [from, to), in time order, as arrays of the columns of `read`. */
    async bucketRows(read: BucketRead, sensorId: number, size: number, from: number, to: number): Promise<BucketRow[]> {
      return (await pool.query<BucketRow>({ ...bucketReads[read], values: [sensorId, size, from, to] })).rows;
    },
    /** The stamps of a sensor's daily buckets starting in [from, to), as [start, stamp] pairs in time order. */
    async dayStamps(sensorId: number, from: number, to: number): Promise<[number, number][]> {
      return (await pool.query<[number, number]>({ ...dayStamps, values: [sensorId, DAY, from, to] })).rows;
    },
    async lastMeasurement(sensorId: number): Promise<StoredMeasurement | undefined> {
      return (await pool.query<StoredMeasurement>({ ...last, values: [sensorId] })).rows[0];
    },
    async actuator(actuatorId: number): Promise<StoredActuator | undefined> {
      return (await pool.query<StoredActuator>({ ...actuator, values: [actuatorId] })).rows[0];
    },
    /** Inserts the rows in order; ids follow the order of the rows (one statement takes them in sequence). */
    async insert(rows: readonly NewMeasurement[]): Promise<StoredMeasurement[]> {
      const result = await pool.query<{ measurement_id: number }>({
        ...insert,
        values: [rows.map((r) => r.sensor_id), rows.map((r) => r.value), rows.map((r) => r.timestamp), newBucketStamp()],
      });
      const ids = result.rows.map((r) => r.measurement_id).sort((a, b) => a - b);
      return rows.map((r, i) => ({ measurement_id: ids[i], sensor_id: r.sensor_id, value: r.value, timestamp: r.timestamp }));
    },
  };
}

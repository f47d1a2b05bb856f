import { scheduleOf } from '../repositories/actuators.js';
import type pg from 'pg';
import { FIVE_MINUTES, HOUR } from '../../domain/bucket-sizes.js';
import type { BucketRead, BucketRow } from '../../domain/bucket-rows.js';
import { bucketReadSql, floorTo, MERGE_ON_CONFLICT, newBucketStamp, pointsByArrayAgg, STAMPED_BUCKET_COLUMNS } from '../history-sql.js';
import type { NewMeasurement, StoredActuator, StoredMeasurement } from '../database.js';
import { coarseBucketRows, dayStampsWithPending } from './pending-buckets.js';

/** A statement with `?` placeholders in PostgreSQL's numbered form. */
function numbered(text: string): string {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}

const MEASUREMENT = 'measurement_id, sensor_id, value, timestamp';

/**
 * The hottest statements on PostgreSQL, sent as they are (no named prepared statement: PgBouncer's
 * transaction mode could not keep one between transactions), so each is planned at each call with
 * its values known, and the planner reads only the day partitions its time bounds allow. Ingest
 * sends a batch as three arrays, one statement whatever its size.
 */
export function postgresHotPaths(pool: pg.Pool) {
  // Timestamps go in as epoch milliseconds (exact interval arithmetic, no date text to format),
  // and only the ids come back: the rest of each row is what was sent. The same statement adds
  // the rows to their 5-minute buckets (one upsert row per bucket touched, in the order every
  // writer of buckets takes them: start, then sensor) and notes each (sensor, hour) it touched for
  // the rollup, so all of it commits together. The hourly and daily buckets are the rollup's.
  //
  // Before anything is written, the statement keeps its sensors from deletion (`for key share`,
  // in id order): a delete locks the sensors first too (for update, in id order), and then their
  // buckets, so the two queue on the sensor rows instead of deadlocking on the buckets (the
  // foreign key checks alone would take the sensor locks last, at the end of the statement). The
  // count is an aggregate, finished (every lock taken) before the insert reads its first row; a
  // sensor a delete took meanwhile is simply not counted, and its rows then fail the foreign key
  // (the whole statement writes nothing), which ingest answers with a 404.
  const insertText =
    'with kept as materialized (select count(*) as sensors from (select sensor_id from sensors ' +
    'where sensor_id = any($1::integer[]) order by sensor_id for key share) as locked), ' +
    'ins as (insert into measurements (sensor_id, value, timestamp) ' +
    "select s, v, timestamptz 'epoch' + ms * interval '1 millisecond' " +
    'from unnest($1::integer[], $2::double precision[], $3::bigint[]) with ordinality as t(s, v, ms, n) cross join kept ' +
    'order by n returning measurement_id, sensor_id, value, (extract(epoch from timestamp) * 1000)::int8 as ms), ' +
    `up as (insert into history_buckets as b (${STAMPED_BUCKET_COLUMNS.join(', ')}) ` +
    `select sensor_id, ${FIVE_MINUTES}::int8, ${floorTo('ms', FIVE_MINUTES)} as start, count(*), sum(value), ` +
    pointsByArrayAgg({ value: 'value', ts: 'ms', id: 'measurement_id' }) +
    ', $4::int8' +
    ' from ins group by sensor_id, start order by start, sensor_id ' +
    MERGE_ON_CONFLICT +
    '), ' +
    `pend as (insert into history_pending (sensor_id, hour_ms) select distinct sensor_id, ${floorTo('ms', HOUR)} as hour from ins ` +
    'order by hour, sensor_id on conflict do nothing) ' +
    'select measurement_id from ins';

  /** The newest timestamp seen per sensor: the newest row is never older, so the read starts there (one partition). */
  const newestSeen = new Map<number, number>();

  async function lastFrom(sensorId: number, since: number | undefined): Promise<StoredMeasurement | undefined> {
    const bounded = since !== undefined;
    const text =
      `select ${MEASUREMENT} from measurements where sensor_id = $1` +
      (bounded ? " and timestamp >= timestamptz 'epoch' + $2::int8 * interval '1 millisecond'" : '') +
      ' order by timestamp desc, measurement_id desc limit 1';
    return (await pool.query<StoredMeasurement>({ text, values: bounded ? [sensorId, since] : [sensorId] })).rows[0];
  }

  return {
    /** A sensor's kept buckets of `size` starting in [from, to), in time order, as arrays of the columns of `read`. */
    async bucketRows(read: BucketRead, sensorId: number, size: number, from: number, to: number): Promise<BucketRow[]> {
      if (size !== FIVE_MINUTES) return coarseBucketRows(pool, read, sensorId, size, from, to);
      return (
        await pool.query<number[]>({ text: numbered(bucketReadSql(read)), values: [sensorId, size, from, to], rowMode: 'array' as const })
      ).rows;
    },
    /** The stamps of a sensor's daily buckets starting in [from, to), as [start, stamp] pairs in time order. */
    dayStamps: (sensorId: number, from: number, to: number) => dayStampsWithPending(pool, sensorId, from, to),
    /**
     * The newest measurement of a sensor: from the newest timestamp seen of it when there is one
     * (a read of one partition); else, or when that row is gone, from its newest 5-minute bucket
     * (written with the rows), and only without one through every partition.
     */
    async lastMeasurement(sensorId: number): Promise<StoredMeasurement | undefined> {
      const seen = newestSeen.get(sensorId);
      let found = seen === undefined ? undefined : await lastFrom(sensorId, seen);
      if (!found) {
        const { rows } = await pool.query<[string]>({
          text: `select last_ts from history_buckets where sensor_id = $1 and size_ms = ${FIVE_MINUTES} order by start_ms desc limit 1`,
          values: [sensorId],
          rowMode: 'array' as const,
        });
        // The newest bucket's last row is the newest row, unless single rows were deleted since.
        found =
          rows.length > 0
            ? ((await lastFrom(sensorId, bucketFloor(Number(rows[0][0])))) ?? (await lastFrom(sensorId, undefined)))
            : undefined;
      }
      if (found) newestSeen.set(sensorId, found.timestamp);
      else newestSeen.delete(sensorId);
      return found;
    },
    async actuator(actuatorId: number): Promise<StoredActuator | undefined> {
      const row = (await pool.query<StoredActuator>({ text: 'select * from actuators where actuator_id = $1', values: [actuatorId] }))
        .rows[0];
      return row && { ...row, schedule: scheduleOf(row.schedule) };
    },
    /** Inserts the rows in order; ids follow the order of the rows (one statement takes them in sequence). */
    async insert(rows: readonly NewMeasurement[]): Promise<StoredMeasurement[]> {
      const result = await pool.query<{ measurement_id: number }>({
        text: insertText,
        values: [rows.map((r) => r.sensor_id), rows.map((r) => r.value), rows.map((r) => r.timestamp), newBucketStamp()],
      });
      const ids = result.rows.map((r) => r.measurement_id).sort((a, b) => a - b);
      return rows.map((r, i) => ({ measurement_id: ids[i], sensor_id: r.sensor_id, value: r.value, timestamp: r.timestamp }));
    },
    /** Forgets what was seen of these sensors' newest rows (their rows were deleted or replaced). */
    forgetNewest(sensorIds?: readonly number[]): void {
      if (sensorIds === undefined) newestSeen.clear();
      else for (const id of sensorIds) newestSeen.delete(id);
    },
  };
}

/** The start of the 5-minute bucket holding `ms`. */
const bucketFloor = (ms: number) => ms - (((ms % FIVE_MINUTES) + FIVE_MINUTES) % FIVE_MINUTES);

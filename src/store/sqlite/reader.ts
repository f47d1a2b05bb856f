import { scheduleOf } from '../repositories/actuators.js';
import SQLite from 'better-sqlite3';
import type { TimeWindow } from '../../domain/time-window.js';
import type { StoredActuator, StoredMeasurement } from '../database.js';
import { DAY } from '../../domain/bucket-sizes.js';
import type { BucketRead, BucketRow } from '../../domain/bucket-rows.js';
import { bucketReadSql, dayStampsSql } from '../history-sql.js';
import { PAGE_CACHE_SIZE } from './connection.js';

/**
 * The hottest reads on SQLite — what pump controllers and dashboards poll — as prepared
 * statements on a read-only connection of their own. A second connection sees only committed
 * data (WAL readers never see another connection's open transaction), and a prepared statement
 * skips the query builder's per-call work.
 */
export function sqliteReader(file: string) {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  db.pragma(`cache_size = ${PAGE_CACHE_SIZE}`);
  const last = db.prepare(
    'select measurement_id, sensor_id, value, timestamp from measurements where sensor_id = ? order by timestamp desc, measurement_id desc limit 1',
  );
  const actuator = db.prepare('select * from actuators where actuator_id = ?');
  const columns = 'select measurement_id, sensor_id, value, timestamp from measurements where sensor_id = ? and timestamp >= ?';
  const order = 'order by timestamp, measurement_id limit ?';
  const after = 'and (timestamp > ? or (timestamp = ? and measurement_id > ?))';
  const page = {
    exclusive: db.prepare(`${columns} and timestamp < ? ${order}`),
    inclusive: db.prepare(`${columns} and timestamp <= ? ${order}`),
    exclusiveAfter: db.prepare(`${columns} and timestamp < ? ${after} ${order}`),
    inclusiveAfter: db.prepare(`${columns} and timestamp <= ? ${after} ${order}`),
  };
  const sensor = db.prepare('select 1 from sensors where sensor_id = ?').pluck();
  const buckets = {
    whole: db.prepare(bucketReadSql('whole')).raw(),
    values: db.prepare(bucketReadSql('values')).raw(),
    extremes: db.prepare(bucketReadSql('extremes')).raw(),
  };

  const dayStamps = db.prepare(dayStampsSql).raw();

  return {
    lastMeasurement(sensorId: number): StoredMeasurement | undefined {
      return last.get(sensorId) as StoredMeasurement | undefined;
    },
    actuator(actuatorId: number): StoredActuator | undefined {
      const row = actuator.get(actuatorId) as (StoredActuator & { enabled: number | boolean }) | undefined;
      return row && { ...row, enabled: Boolean(row.enabled), schedule: scheduleOf(row.schedule) };
    },
    /** One page of a window in time order, after the given row (keyset pagination). */
    windowPage(sensorId: number, window: TimeWindow, afterRow: StoredMeasurement | undefined, limit: number): StoredMeasurement[] {
      const start = window.start ?? Number.MIN_SAFE_INTEGER;
      const end = window.end ?? Number.MAX_SAFE_INTEGER;
      if (!afterRow) return (window.endInclusive ? page.inclusive : page.exclusive).all(sensorId, start, end, limit) as StoredMeasurement[];
      const statement = window.endInclusive ? page.inclusiveAfter : page.exclusiveAfter;
      return statement.all(
        sensorId,
        start,
        end,
        afterRow.timestamp,
        afterRow.timestamp,
        afterRow.measurement_id,
        limit,
      ) as StoredMeasurement[];
    },
    /** A sensor's kept buckets of `size` starting in [from, to), in time order, as arrays of the columns of `read`. */
    bucketRows(read: BucketRead, sensorId: number, size: number, from: number, to: number): BucketRow[] {
      return buckets[read].all(sensorId, size, from, to) as BucketRow[];
    },
    /** The stamps of a sensor's daily buckets starting in [from, to), as [start, stamp] pairs in time order. */
    dayStamps(sensorId: number, from: number, to: number): [number, number][] {
      return dayStamps.all(sensorId, DAY, from, to) as [number, number][];
    },
    sensorExists(sensorId: number): boolean {
      return sensor.get(sensorId) !== undefined;
    },
    close(): void {
      db.close();
    },
  };
}

export type SqliteReader = ReturnType<typeof sqliteReader>;

import type pg from 'pg';
import type { StoredActuator } from './actuators.js';
import type { NewMeasurement, StoredMeasurement } from './measurements.js';

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
  const insert = {
    name: 'sensorhub_insert_measurements',
    text:
      'insert into measurements (sensor_id, value, timestamp) ' +
      'select s, v, ts from unnest($1::integer[], $2::double precision[], $3::timestamptz[]) with ordinality as t(s, v, ts, n) ' +
      'order by n returning measurement_id, sensor_id, value, timestamp',
  };

  return {
    async lastMeasurement(sensorId: number): Promise<StoredMeasurement | undefined> {
      return (await pool.query<StoredMeasurement>({ ...last, values: [sensorId] })).rows[0];
    },
    async actuator(actuatorId: number): Promise<StoredActuator | undefined> {
      return (await pool.query<StoredActuator>({ ...actuator, values: [actuatorId] })).rows[0];
    },
    /** Inserts the rows in order; ids follow the order of the rows. */
    async insert(rows: readonly NewMeasurement[]): Promise<StoredMeasurement[]> {
      const result = await pool.query<StoredMeasurement>({
        ...insert,
        values: [rows.map((r) => r.sensor_id), rows.map((r) => r.value), rows.map((r) => new Date(r.timestamp))],
      });
      return result.rows.sort((a, b) => a.measurement_id - b.measurement_id);
    },
  };
}

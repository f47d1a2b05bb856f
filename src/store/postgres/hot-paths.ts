import type pg from 'pg';
import type { NewMeasurement, StoredActuator, StoredMeasurement } from '../database.js';

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
  // and only the ids come back: the rest of each row is what was sent.
  const insert = {
    name: 'sensorhub_insert_measurement_ids',
    text:
      'insert into measurements (sensor_id, value, timestamp) ' +
      "select s, v, timestamptz 'epoch' + ms * interval '1 millisecond' " +
      'from unnest($1::integer[], $2::double precision[], $3::bigint[]) with ordinality as t(s, v, ms, n) ' +
      'order by n returning measurement_id',
  };

  return {
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
        values: [rows.map((r) => r.sensor_id), rows.map((r) => r.value), rows.map((r) => r.timestamp)],
      });
      const ids = result.rows.map((r) => r.measurement_id).sort((a, b) => a - b);
      return rows.map((r, i) => ({ measurement_id: ids[i], sensor_id: r.sensor_id, value: r.value, timestamp: r.timestamp }));
    },
  };
}

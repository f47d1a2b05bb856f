import type { Kysely, Selectable } from 'kysely';
import type { Sensor, SensorBase } from '../schemas/sensors.js';
import type { Database, SensorTable } from './database.js';
import type { Dialect } from './dialect.js';

function toSensor(row: Selectable<SensorTable>): Sensor {
  return { ...row, sensor_type: row.sensor_type as Sensor['sensor_type'] };
}

function columns(sensor: SensorBase) {
  return {
    sensor_type: sensor.sensor_type,
    prototype_id: sensor.prototype_id,
    sensor_unit: sensor.sensor_unit,
    threshold_critically_low: sensor.threshold_critically_low,
    threshold_low: sensor.threshold_low,
    threshold_high: sensor.threshold_high,
    threshold_critically_high: sensor.threshold_critically_high,
  };
}

export function sensorRepository(db: Kysely<Database>, dialect: Dialect) {
  return {
    /**
     * Inside a transaction, locks these sensors' rows in id order before a bulk update, so that
     * concurrent bulk updates queue instead of deadlocking. SQLite locks the whole store for a
     * write transaction already.
     */
    async lock(sensorIds: readonly number[]): Promise<void> {
      if (dialect.kind !== 'postgres' || sensorIds.length === 0) return;
      await db.selectFrom('sensors').select('sensor_id').where('sensor_id', 'in', [...new Set(sensorIds)]).orderBy('sensor_id').forUpdate().execute();
    },

    async listByPrototype(prototypeId: number): Promise<Sensor[]> {
      const rows = await db
        .selectFrom('sensors')
        .selectAll()
        .where('prototype_id', '=', prototypeId)
        .orderBy('sensor_id')
        .execute();
      return rows.map(toSensor);
    },

    /** Sensors by sensor_id, all of them or those matching the filter. */
    async list(filter: { sensorIds?: readonly number[]; prototypeId?: number } = {}): Promise<Sensor[]> {
      let query = db.selectFrom('sensors').selectAll();
      if (filter.sensorIds) query = query.where('sensor_id', 'in', filter.sensorIds.length ? [...filter.sensorIds] : [-1]);
      if (filter.prototypeId !== undefined) query = query.where('prototype_id', '=', filter.prototypeId);
      return (await query.orderBy('sensor_id').execute()).map(toSensor);
    },

    async get(sensorId: number): Promise<Sensor | undefined> {
      const row = await db.selectFrom('sensors').selectAll().where('sensor_id', '=', sensorId).executeTakeFirst();
      return row && toSensor(row);
    },

    /** The ids among `sensorIds` that exist. */
    async existing(sensorIds: readonly number[]): Promise<Set<number>> {
      if (sensorIds.length === 0) return new Set();
      const rows = await db
        .selectFrom('sensors')
        .select('sensor_id')
        .where('sensor_id', 'in', [...new Set(sensorIds)])
        .execute();
      return new Set(rows.map((r) => r.sensor_id));
    },

    async create(sensor: SensorBase): Promise<Sensor> {
      const row = await db.insertInto('sensors').values(columns(sensor)).returningAll().executeTakeFirstOrThrow();
      return toSensor(row);
    },

    /** Writes every field of `sensor` (already merged and checked by the caller). */
    async update(sensor: Sensor): Promise<Sensor> {
      const row = await db
        .updateTable('sensors')
        .set(columns(sensor))
        .where('sensor_id', '=', sensor.sensor_id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return toSensor(row);
    },
  };
}

export type SensorRepository = ReturnType<typeof sensorRepository>;

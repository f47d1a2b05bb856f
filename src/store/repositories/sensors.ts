import type { Kysely } from 'kysely';
import type { Sensor, SensorBase } from '../../domain/sensor.js';
import type { Database } from '../database.js';
import type { Dialect } from '../dialect.js';

function columns(sensor: SensorBase) {
  return {
    sensor_type: sensor.sensor_type,
    prototype_id: sensor.prototype_id,
    sensor_unit: sensor.sensor_unit,
    threshold_critically_low: sensor.threshold_critically_low,
    threshold_low: sensor.threshold_low,
    threshold_high: sensor.threshold_high,
    threshold_critically_high: sensor.threshold_critically_high,
    sensor_name: sensor.sensor_name ?? null,
    valid_min: sensor.valid_min ?? null,
    valid_max: sensor.valid_max ?? null,
    stale_after: sensor.stale_after ?? null,
    stuck_after: sensor.stuck_after ?? null,
  };
}

export function sensorRepository(db: Kysely<Database>, dialect: Dialect) {
  return {
    /** Inside a transaction, locks these sensors' rows in id order (see `Dialect.lockRows`). */
    lock(sensorIds: readonly number[]): Promise<void> {
      return dialect.lockRows(db, 'sensors', sensorIds);
    },

    listByPrototype(prototypeId: number): Promise<Sensor[]> {
      return db.selectFrom('sensors').selectAll().where('prototype_id', '=', prototypeId).orderBy('sensor_id').execute();
    },

    /** Sensors by sensor_id, all of them or those matching the filter. */
    list(filter: { sensorIds?: readonly number[]; prototypeId?: number } = {}): Promise<Sensor[]> {
      let query = db.selectFrom('sensors').selectAll();
      if (filter.sensorIds) query = query.where('sensor_id', 'in', filter.sensorIds.length ? [...filter.sensorIds] : [-1]);
      if (filter.prototypeId !== undefined) query = query.where('prototype_id', '=', filter.prototypeId);
      return query.orderBy('sensor_id').execute();
    },

    get(sensorId: number): Promise<Sensor | undefined> {
      return db.selectFrom('sensors').selectAll().where('sensor_id', '=', sensorId).executeTakeFirst();
    },

    /**
     * Inside a transaction, the sensor with its row kept from being deleted until the end
     * (`Dialect.forKeyShare`): for writes of rows that belong to it, which then never meet a
     * delete of the sensor halfway. Undefined when it does not exist (or a delete just took it).
     */
    getKept(sensorId: number): Promise<Sensor | undefined> {
      return dialect.forKeyShare(db.selectFrom('sensors').selectAll().where('sensor_id', '=', sensorId)).executeTakeFirst();
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

    create(sensor: SensorBase): Promise<Sensor> {
      return db.insertInto('sensors').values(columns(sensor)).returningAll().executeTakeFirstOrThrow();
    },

    /** Writes every field of `sensor` (already merged and checked by the caller). */
    update(sensor: Sensor): Promise<Sensor> {
      return db
        .updateTable('sensors')
        .set(columns(sensor))
        .where('sensor_id', '=', sensor.sensor_id)
        .returningAll()
        .executeTakeFirstOrThrow();
    },
  };
}

export type SensorRepository = ReturnType<typeof sensorRepository>;

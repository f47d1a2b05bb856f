import type { Kysely, Selectable } from 'kysely';
import type { Sensor, SensorBase } from '../../domain/sensor.js';
import type { Database, SensorTable } from '../database.js';
import type { Dialect } from '../dialect.js';
import { reusableQuery } from '../reusable-query.js';

const isoOrNull = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The row as the API shows it: the calibration times as ISO text. */
const toSensor = (row: Selectable<SensorTable>): Sensor => ({
  ...row,
  calibrated_at: isoOrNull(row.calibrated_at),
  calibration_due: isoOrNull(row.calibration_due),
});

/** A sensor kept from deletion until the transaction ends: the first read of every alert evaluation. */
const keptSensor = reusableQuery((db, dialect, sensorId: number) =>
  dialect.forKeyShare(db.selectFrom('sensors').selectAll().where('sensor_id', '=', sensorId)),
);

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
    calibration_interval: sensor.calibration_interval ?? null,
  };
}

export function sensorRepository(db: Kysely<Database>, dialect: Dialect) {
  return {
    /** Inside a transaction, locks these sensors' rows in id order (see `Dialect.lockRows`). */
    lock(sensorIds: readonly number[]): Promise<void> {
      return dialect.lockRows(db, 'sensors', sensorIds);
    },

    async listByPrototype(prototypeId: number): Promise<Sensor[]> {
      return (await db.selectFrom('sensors').selectAll().where('prototype_id', '=', prototypeId).orderBy('sensor_id').execute()).map(
        toSensor,
      );
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

    /**
     * Inside a transaction, the sensor with its row kept from being deleted until the end
     * (`Dialect.forKeyShare`): for writes of rows that belong to it, which then never meet a
     * delete of the sensor halfway. Undefined when it does not exist (or a delete just took it).
     */
    async getKept(sensorId: number): Promise<Sensor | undefined> {
      const [row] = await keptSensor(db, dialect, sensorId);
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

    /** Creates the sensor, its next calibration due at `calibrationDue` (epoch ms; null: none, as without an interval). */
    async create(sensor: SensorBase, calibrationDue: number | null = null): Promise<Sensor> {
      const values = { ...columns(sensor), calibration_due: calibrationDue === null ? null : dialect.time(calibrationDue) };
      return toSensor(await db.insertInto('sensors').values(values).returningAll().executeTakeFirstOrThrow());
    },

    /**
     * Writes every setting of `sensor` (already merged and checked by the caller), and when the
     * next calibration falls due; `calibrated_at` is only ever moved by `calibrated`.
     */
    async update(sensor: Sensor, calibrationDue: number | null): Promise<Sensor> {
      const row = await db
        .updateTable('sensors')
        .set({ ...columns(sensor), calibration_due: calibrationDue === null ? null : dialect.time(calibrationDue) })
        .where('sensor_id', '=', sensor.sensor_id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return toSensor(row);
    },

    /** Records the sensor's newest accepted calibration and its next due instant (epoch ms, or null). */
    async calibrated(sensorId: number, at: number, calibrationDue: number | null): Promise<Sensor> {
      const row = await db
        .updateTable('sensors')
        .set({ calibrated_at: dialect.time(at), calibration_due: calibrationDue === null ? null : dialect.time(calibrationDue) })
        .where('sensor_id', '=', sensorId)
        .returningAll()
        .executeTakeFirstOrThrow();
      return toSensor(row);
    },
  };
}

export type SensorRepository = ReturnType<typeof sensorRepository>;

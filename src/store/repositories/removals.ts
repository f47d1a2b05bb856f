import { type Kysely, sql } from 'kysely';
import type { Dependents } from '../../domain/dependents.js';
import type { Database, StoredActuator, StoredInterlock, StoredMeasurement } from '../database.js';
import type { Dialect } from '../dialect.js';
import { actuatorRepository } from './actuators.js';
import { alertRepository } from './alerts.js';
import { historyRepository } from './history.js';
import { interlockRepository } from './interlocks.js';

/**
 * The outcome of a delete: done (with the sensors and actuators it removed, by id, and the
 * actuators it disabled because an interlock of theirs went with it), nothing to delete, or
 * refused because of what depends on it.
 */
export type Removal =
  | {
      status: 'removed';
      sensorIds: number[];
      actuatorIds: number[];
      disabled: (StoredActuator & { interlocks: StoredInterlock[] })[];
    }
  | { status: 'missing' }
  | { status: 'has-dependents'; dependents: Dependents };

const hasAny = (d: Dependents) => (d.sensors ?? 0) + d.actuators + d.measurements + (d.notes ?? 0) > 0;

/**
 * Deletes, bound to one transaction (the caller opens it). Sensors and prototypes are locked
 * first (`Dialect.forUpdate`): an insert that refers to them waits for the delete to end, so no
 * measurement or actuator can slip in between the count and the delete.
 */
export function removals(db: Kysely<Database>, dialect: Dialect) {
  const history = historyRepository(db, dialect);
  const alerts = alertRepository(db, dialect);
  const interlocks = interlockRepository(db);
  const actuators = actuatorRepository(db, dialect);
  const count = async (query: Promise<{ n: number | string | bigint }>) => Number((await query).n);
  const countAll = sql<number>`count(*)`.as('n');

  async function sensorIdsOf(prototypeId: number): Promise<number[]> {
    const query = db.selectFrom('sensors').select('sensor_id').where('prototype_id', '=', prototypeId).orderBy('sensor_id');
    return (await dialect.forUpdate(query).execute()).map((r) => r.sensor_id);
  }

  /** The actuators these sensors drive, and those that use one of them as an interlock, by id. */
  async function actuatorsOf(sensorIds: number[]): Promise<number[]> {
    const driven = await db.selectFrom('actuators').select('actuator_id').where('sensor_id', 'in', sensorIds).execute();
    const ids = new Set([...driven.map((a) => a.actuator_id), ...(await interlocks.actuatorsUsing(sensorIds))]);
    return [...ids].sort((a, b) => a - b);
  }

  async function dependentsOfSensors(sensorIds: number[]): Promise<Omit<Dependents, 'sensors'>> {
    if (sensorIds.length === 0) return { actuators: 0, measurements: 0 };
    const [actuators, measurements] = [
      (await actuatorsOf(sensorIds)).length,
      await count(db.selectFrom('measurements').select(countAll).where('sensor_id', 'in', sensorIds).executeTakeFirstOrThrow()),
    ];
    return { actuators, measurements };
  }

  /**
   * Deletes what hangs below these sensors: answers the actuators it removed, by id, and those
   * it disabled, which keep running on other sensors but used one of these as an interlock
   * (docs/api.md §14: no pump keeps running without its interlock).
   */
  async function removeBelow(sensorIds: number[]): Promise<Pick<Extract<Removal, { status: 'removed' }>, 'actuatorIds' | 'disabled'>> {
    if (sensorIds.length === 0) return { actuatorIds: [], disabled: [] };
    const interlocked = await interlocks.actuatorsUsing(sensorIds);
    await interlocks.removeSensors(sensorIds);
    await history.sensorsRemoved(sensorIds);
    await alerts.sensorsRemoved(sensorIds);
    await db.deleteFrom('measurements').where('sensor_id', 'in', sensorIds).execute();
    const removed = await db.deleteFrom('actuators').where('sensor_id', 'in', sensorIds).returning('actuator_id').execute();
    const actuatorIds = removed.map((a) => a.actuator_id).sort((a, b) => a - b);
    const kept = interlocked.filter((id) => !actuatorIds.includes(id));
    const disabled = await actuators.disable(kept);
    const left = await interlocks.ofActuators(kept);
    return { actuatorIds, disabled: disabled.map((a) => ({ ...a, interlocks: left.get(a.actuator_id) ?? [] })) };
  }

  return {
    /** A measurement, and its share of the history buckets (recomputed in the same transaction); answers the row removed. */
    async measurement(measurementId: number): Promise<StoredMeasurement | undefined> {
      let query = db.deleteFrom('measurements').where('measurement_id', '=', measurementId);
      if (dialect.kind === 'postgres') {
        // Named by its sensor and time, the delete reads one partition (and, on Citus, one shard):
        // the row is first found among the sensors', by its id.
        const sensorIds = (await db.selectFrom('sensors').select('sensor_id').execute()).map((s) => s.sensor_id);
        if (sensorIds.length === 0) return undefined;
        const found = await db
          .selectFrom('measurements')
          .select(['sensor_id', 'timestamp'])
          .where(sql<boolean>`sensor_id = any(${sensorIds}::int[])`)
          .where('measurement_id', '=', measurementId)
          .executeTakeFirst();
        if (!found) return undefined;
        query = query.where('sensor_id', '=', found.sensor_id).where('timestamp', '=', dialect.at(Number(found.timestamp)));
      }
      const removed = await query.returning(['measurement_id', 'sensor_id', 'value', dialect.timestampMs().as('timestamp')]).execute();
      await history.measurementsRemoved(removed);
      return removed[0];
    },

    /** An actuator; its interlocks and doses go with it (the schema cascades). */
    async actuator(actuatorId: number): Promise<boolean> {
      const result = await db.deleteFrom('actuators').where('actuator_id', '=', actuatorId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /**
     * A sensor, refused while it has measurements or actuators unless `cascade`, which deletes them
     * with it. Its calibrations go with it (the schema cascades).
     */
    async sensor(sensorId: number, cascade: boolean): Promise<Removal> {
      const query = db.selectFrom('sensors').select('sensor_id').where('sensor_id', '=', sensorId);
      if (!(await dialect.forUpdate(query).executeTakeFirst())) return { status: 'missing' };
      if (!cascade) {
        const dependents = await dependentsOfSensors([sensorId]);
        if (hasAny(dependents)) return { status: 'has-dependents', dependents };
      }
      const below = await removeBelow([sensorId]);
      await db.deleteFrom('sensors').where('sensor_id', '=', sensorId).execute();
      return { status: 'removed', sensorIds: [sensorId], ...below };
    },

    /**
     * A prototype, refused while it has sensors (and so their actuators and measurements) or notes
     * unless `cascade`. Its notes, pauses and resumes go with it (the schema cascades).
     */
    async prototype(prototypeId: number, cascade: boolean): Promise<Removal> {
      const query = db.selectFrom('prototypes').select('prototype_id').where('prototype_id', '=', prototypeId);
      if (!(await dialect.forUpdate(query).executeTakeFirst())) return { status: 'missing' };
      const sensorIds = await sensorIdsOf(prototypeId);
      if (!cascade) {
        const notes = await count(
          db.selectFrom('notes').select(countAll).where('prototype_id', '=', prototypeId).executeTakeFirstOrThrow(),
        );
        const dependents = { sensors: sensorIds.length, ...(await dependentsOfSensors(sensorIds)), notes };
        if (hasAny(dependents)) return { status: 'has-dependents', dependents };
      }
      const below = await removeBelow(sensorIds);
      if (sensorIds.length > 0) await db.deleteFrom('sensors').where('sensor_id', 'in', sensorIds).execute();
      await db.deleteFrom('prototypes').where('prototype_id', '=', prototypeId).execute();
      return { status: 'removed', sensorIds, ...below };
    },
  };
}

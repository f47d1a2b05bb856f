import { type Kysely, sql } from 'kysely';
import type { Database, StoredMeasurement } from '../database.js';
import type { Dialect } from '../dialect.js';
import { alertRepository } from './alerts.js';
import { historyRepository } from './history.js';

/** What still hangs below a sensor or a prototype, counted before it is deleted. */
export interface Dependents {
  sensors?: number;
  actuators: number;
  measurements: number;
}

/**
 * The outcome of a delete: done (with the sensors and actuators it removed, by id), nothing to
 * delete, or refused because of what depends on it.
 */
export type Removal =
  | { status: 'removed'; sensorIds: number[]; actuatorIds: number[] }
  | { status: 'missing' }
  | { status: 'has-dependents'; dependents: Dependents };

const hasAny = (d: Dependents) => (d.sensors ?? 0) + d.actuators + d.measurements > 0;

/**
 * Deletes, bound to one transaction (the caller opens it). Sensors and prototypes are locked
 * first (`Dialect.forUpdate`): an insert that refers to them waits for the delete to end, so no
 * measurement or actuator can slip in between the count and the delete.
 */
export function removals(db: Kysely<Database>, dialect: Dialect) {
  const history = historyRepository(db, dialect);
  const alerts = alertRepository(db, dialect);
  const count = async (query: Promise<{ n: number | string | bigint }>) => Number((await query).n);
  const countAll = sql<number>`count(*)`.as('n');

  async function sensorIdsOf(prototypeId: number): Promise<number[]> {
    const query = db.selectFrom('sensors').select('sensor_id').where('prototype_id', '=', prototypeId).orderBy('sensor_id');
    return (await dialect.forUpdate(query).execute()).map((r) => r.sensor_id);
  }

  async function dependentsOfSensors(sensorIds: number[]): Promise<Omit<Dependents, 'sensors'>> {
    if (sensorIds.length === 0) return { actuators: 0, measurements: 0 };
    const [actuators, measurements] = [
      await count(db.selectFrom('actuators').select(countAll).where('sensor_id', 'in', sensorIds).executeTakeFirstOrThrow()),
      await count(db.selectFrom('measurements').select(countAll).where('sensor_id', 'in', sensorIds).executeTakeFirstOrThrow()),
    ];
    return { actuators, measurements };
  }

  /** Deletes what hangs below these sensors; answers the actuators it removed, by id. */
  async function removeBelow(sensorIds: number[]): Promise<number[]> {
    if (sensorIds.length === 0) return [];
    await history.sensorsRemoved(sensorIds);
    await alerts.sensorsRemoved(sensorIds);
    await db.deleteFrom('measurements').where('sensor_id', 'in', sensorIds).execute();
    const actuators = await db.deleteFrom('actuators').where('sensor_id', 'in', sensorIds).returning('actuator_id').execute();
    return actuators.map((a) => a.actuator_id).sort((a, b) => a - b);
  }

  return {
    /** A measurement, and its share of the history buckets (recomputed in the same transaction); answers the row removed. */
    async measurement(measurementId: number): Promise<StoredMeasurement | undefined> {
      const removed = await db
        .deleteFrom('measurements')
        .where('measurement_id', '=', measurementId)
        .returning(['measurement_id', 'sensor_id', 'value', dialect.timestampMs().as('timestamp')])
        .execute();
      await history.measurementsRemoved(removed);
      return removed[0];
    },

    async actuator(actuatorId: number): Promise<boolean> {
      const result = await db.deleteFrom('actuators').where('actuator_id', '=', actuatorId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** A sensor, refused while it has measurements or actuators unless `cascade`, which deletes them with it. */
    async sensor(sensorId: number, cascade: boolean): Promise<Removal> {
      const query = db.selectFrom('sensors').select('sensor_id').where('sensor_id', '=', sensorId);
      if (!(await dialect.forUpdate(query).executeTakeFirst())) return { status: 'missing' };
      if (!cascade) {
        const dependents = await dependentsOfSensors([sensorId]);
        if (hasAny(dependents)) return { status: 'has-dependents', dependents };
      }
      const actuatorIds = await removeBelow([sensorId]);
      await db.deleteFrom('sensors').where('sensor_id', '=', sensorId).execute();
      return { status: 'removed', sensorIds: [sensorId], actuatorIds };
    },

    /** A prototype, refused while it has sensors (and so their actuators and measurements) unless `cascade`. */
    async prototype(prototypeId: number, cascade: boolean): Promise<Removal> {
      const query = db.selectFrom('prototypes').select('prototype_id').where('prototype_id', '=', prototypeId);
      if (!(await dialect.forUpdate(query).executeTakeFirst())) return { status: 'missing' };
      const sensorIds = await sensorIdsOf(prototypeId);
      if (!cascade && sensorIds.length > 0) {
        return { status: 'has-dependents', dependents: { sensors: sensorIds.length, ...(await dependentsOfSensors(sensorIds)) } };
      }
      const actuatorIds = await removeBelow(sensorIds);
      if (sensorIds.length > 0) await db.deleteFrom('sensors').where('sensor_id', 'in', sensorIds).execute();
      await db.deleteFrom('prototypes').where('prototype_id', '=', prototypeId).execute();
      return { status: 'removed', sensorIds, actuatorIds };
    },
  };
}

/**
 * `3 sensors, 2 actuators and 1,204 measurements`, `5 measurements`: what a refused delete tells
 * the client, naming only what is there (a count of 0 says nothing a reader needs).
 */
export function describeDependents(d: Dependents): string {
  const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
  const counts: [number, string][] = [
    [d.sensors ?? 0, 'sensor'],
    [d.actuators, 'actuator'],
    [d.measurements, 'measurement'],
  ];
  const parts = counts.filter(([n]) => n > 0).map(([n, word]) => plural(n, word));
  if (parts.length === 0) return 'nothing else';
  return parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

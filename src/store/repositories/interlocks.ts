import type { Kysely } from 'kysely';
import type { Database, StoredInterlock } from '../database.js';

const COLUMNS = ['sensor_id', 'block_below', 'block_above'] as const;

/** Each actuator's interlocks (docs/api.md §14), kept in the order the client gave them. */
export function interlockRepository(db: Kysely<Database>) {
  return {
    /** The actuator's interlocks, in its order ([] when it has none). */
    of(actuatorId: number): Promise<StoredInterlock[]> {
      return db.selectFrom('actuator_interlocks').select(COLUMNS).where('actuator_id', '=', actuatorId).orderBy('position').execute();
    },

    /** The interlocks of each of these actuators (an actuator without any is left out of the map). */
    async ofActuators(actuatorIds: readonly number[]): Promise<Map<number, StoredInterlock[]>> {
      const out = new Map<number, StoredInterlock[]>();
      if (actuatorIds.length === 0) return out;
      const rows = await db
        .selectFrom('actuator_interlocks')
        .select(['actuator_id', ...COLUMNS])
        .where('actuator_id', 'in', [...new Set(actuatorIds)])
        .orderBy('actuator_id')
        .orderBy('position')
        .execute();
      for (const { actuator_id, ...interlock } of rows) {
        const list = out.get(actuator_id) ?? [];
        list.push(interlock);
        out.set(actuator_id, list);
      }
      return out;
    },

    /** Replaces all of the actuator's interlocks with these, in this order. */
    async replace(actuatorId: number, interlocks: readonly StoredInterlock[]): Promise<void> {
      await db.deleteFrom('actuator_interlocks').where('actuator_id', '=', actuatorId).execute();
      if (interlocks.length === 0) return;
      await db
        .insertInto('actuator_interlocks')
        .values(
          interlocks.map((interlock, position) => ({
            actuator_id: actuatorId,
            position,
            sensor_id: interlock.sensor_id,
            block_below: interlock.block_below,
            block_above: interlock.block_above,
          })),
        )
        .execute();
    },

    /** The actuators that use any of these sensors as an interlock, by id. */
    async actuatorsUsing(sensorIds: readonly number[]): Promise<number[]> {
      if (sensorIds.length === 0) return [];
      const rows = await db
        .selectFrom('actuator_interlocks')
        .select('actuator_id')
        .distinct()
        .where('sensor_id', 'in', [...sensorIds])
        .orderBy('actuator_id')
        .execute();
      return rows.map((r) => r.actuator_id);
    },

    /** Deletes every interlock entry that names one of these sensors. */
    async removeSensors(sensorIds: readonly number[]): Promise<void> {
      if (sensorIds.length === 0) return;
      await db
        .deleteFrom('actuator_interlocks')
        .where('sensor_id', 'in', [...sensorIds])
        .execute();
    },
  };
}

export type InterlockRepository = ReturnType<typeof interlockRepository>;

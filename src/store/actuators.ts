import type { Kysely, Selectable } from 'kysely';
import type { ActivationCondition } from '../domain/activation.js';
import type { ActuatorBase } from '../schemas/actuators.js';
import type { ActuatorTable, Database } from './database.js';
import type { Dialect } from './dialect.js';

/** An actuator as the service handles it: last_activated in epoch ms. */
export interface StoredActuator {
  actuator_id: number;
  actuator_type: ActuatorBase['actuator_type'];
  sensor_id: number;
  condition_value: number;
  activation_condition: ActivationCondition;
  activation_period: number;
  activation_duration: number;
  actuator_name: string | null;
  enabled: boolean;
  last_activated: number;
}

export type ActuatorFields = Omit<StoredActuator, 'actuator_id'>;

function toActuator(row: Selectable<ActuatorTable>): StoredActuator {
  return {
    ...row,
    actuator_type: row.actuator_type as StoredActuator['actuator_type'],
    activation_condition: row.activation_condition as ActivationCondition,
    enabled: Boolean(row.enabled),
  };
}

export function actuatorRepository(db: Kysely<Database>, dialect: Dialect) {
  const columns = (a: ActuatorFields) => ({
    actuator_type: a.actuator_type,
    sensor_id: a.sensor_id,
    condition_value: a.condition_value,
    activation_condition: a.activation_condition,
    activation_period: a.activation_period,
    activation_duration: a.activation_duration,
    actuator_name: a.actuator_name,
    enabled: dialect.bool(a.enabled),
    last_activated: dialect.time(a.last_activated),
  });

  return {
    /** Inside a transaction, locks these actuators' rows in id order (see the sensors' `lock`). */
    async lock(actuatorIds: readonly number[]): Promise<void> {
      if (dialect.kind !== 'postgres' || actuatorIds.length === 0) return;
      await db.selectFrom('actuators').select('actuator_id').where('actuator_id', 'in', [...new Set(actuatorIds)]).orderBy('actuator_id').forUpdate().execute();
    },

    async get(actuatorId: number): Promise<StoredActuator | undefined> {
      const row = await db.selectFrom('actuators').selectAll().where('actuator_id', '=', actuatorId).executeTakeFirst();
      return row && toActuator(row);
    },

    /** The actuators whose sensor belongs to the prototype, by actuator_id. */
    async listByPrototype(prototypeId: number): Promise<StoredActuator[]> {
      const rows = await db
        .selectFrom('actuators')
        .innerJoin('sensors', 'sensors.sensor_id', 'actuators.sensor_id')
        .selectAll('actuators')
        .where('sensors.prototype_id', '=', prototypeId)
        .orderBy('actuators.actuator_id')
        .execute();
      return rows.map(toActuator);
    },

    async create(actuator: ActuatorFields): Promise<StoredActuator> {
      const row = await db.insertInto('actuators').values(columns(actuator)).returningAll().executeTakeFirstOrThrow();
      return toActuator(row);
    },

    /**
     * Writes the configuration fields. last_activated is left out: only `markActivated` moves it,
     * so a settings update can never set it back, not even to a value it read a moment before.
     */
    async update(actuator: StoredActuator): Promise<StoredActuator> {
      const { last_activated: _ignored, ...settings } = columns(actuator);
      const row = await db
        .updateTable('actuators')
        .set(settings)
        .where('actuator_id', '=', actuator.actuator_id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return toActuator(row);
    },

    async markActivated(actuatorId: number, at: number): Promise<StoredActuator | undefined> {
      const row = await db
        .updateTable('actuators')
        .set({ last_activated: dialect.time(at) })
        .where('actuator_id', '=', actuatorId)
        .returningAll()
        .executeTakeFirst();
      return row && toActuator(row);
    },
  };
}

export type ActuatorRepository = ReturnType<typeof actuatorRepository>;

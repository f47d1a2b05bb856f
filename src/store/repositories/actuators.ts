import type { Kysely, Selectable } from 'kysely';
import type { ActuatorFields, ActuatorTable, Database, StoredActuator } from '../database.js';
import type { Dialect } from '../dialect.js';

const toActuator = (row: Selectable<ActuatorTable>): StoredActuator => ({ ...row, enabled: Boolean(row.enabled) });

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
    /** Inside a transaction, locks these actuators' rows in id order (see `Dialect.lockRows`). */
    lock(actuatorIds: readonly number[]): Promise<void> {
      return dialect.lockRows(db, 'actuators', actuatorIds);
    },

    async get(actuatorId: number): Promise<StoredActuator | undefined> {
      const row = await db.selectFrom('actuators').selectAll().where('actuator_id', '=', actuatorId).executeTakeFirst();
      return row && toActuator(row);
    },

    /** Every actuator, by actuator_id. */
    async all(): Promise<StoredActuator[]> {
      return (await db.selectFrom('actuators').selectAll().orderBy('actuator_id').execute()).map(toActuator);
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

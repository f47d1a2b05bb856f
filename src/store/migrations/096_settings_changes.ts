import { type Kysely, type Migration, sql } from 'kysely';
import type { SchemaTypes } from '../dialect.js';

/**
 * The audit of settings: each change of an actuator's or a sensor's settings, with who made it
 * and, per field, the value before and after (`changes`, JSON). Recorded in the transaction of
 * the change; kept as long as what it is about.
 */
export function settingsChangesMigration({ time, identity }: SchemaTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('settings_changes')
        .addColumn('change_id', 'integer', identity)
        .addColumn('at', time, (c) => c.notNull())
        .addColumn('prototype_id', 'integer', (c) => c.notNull().references('prototypes.prototype_id').onDelete('cascade'))
        .addColumn('actuator_id', 'integer', (c) => c.references('actuators.actuator_id').onDelete('cascade'))
        .addColumn('sensor_id', 'integer', (c) => c.references('sensors.sensor_id').onDelete('cascade'))
        .addColumn('author', 'text')
        .addColumn('changes', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('settings_changes_by_prototype')
        .on('settings_changes')
        .columns(['prototype_id', 'at', 'change_id'])
        .execute();
      await db.schema.createIndex('settings_changes_by_actuator').on('settings_changes').columns(['actuator_id']).execute();
      await db.schema.createIndex('settings_changes_by_sensor').on('settings_changes').columns(['sensor_id']).execute();
    },
    async down(db: Kysely<unknown>) {
      await sql`drop table if exists settings_changes`.execute(db);
    },
  };
}

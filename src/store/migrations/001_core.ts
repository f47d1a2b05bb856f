import { type Kysely, type Migration, sql } from 'kysely';
import type { SchemaTypes } from '../dialect.js';

/** The whole schema of the first release: the same tables on both stores, types that fit each. */
export function coreMigration({ time, float, bool, bytes, bigId, identity, rowKey }: SchemaTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('prototypes')
        .addColumn('prototype_id', 'integer', (c) => c.primaryKey())
        .addColumn('prototype_name', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('sensors')
        .addColumn('sensor_id', 'integer', identity)
        .addColumn('sensor_type', 'text', (c) => c.notNull())
        .addColumn('prototype_id', 'integer', (c) => c.notNull().references('prototypes.prototype_id'))
        .addColumn('sensor_unit', 'text', (c) => c.notNull())
        .addColumn('threshold_critically_low', float, (c) => c.notNull())
        .addColumn('threshold_low', float, (c) => c.notNull())
        .addColumn('threshold_high', float, (c) => c.notNull())
        .addColumn('threshold_critically_high', float, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sensors_by_prototype').on('sensors').columns(['prototype_id', 'sensor_id']).execute();

      await db.schema
        .createTable('measurements')
        .addColumn('measurement_id', bigId, rowKey)
        .addColumn('sensor_id', 'integer', (c) => c.notNull().references('sensors.sensor_id'))
        .addColumn('value', float, (c) => c.notNull())
        .addColumn('timestamp', time, (c) => c.notNull())
        .execute();
      // Serves "window of one sensor", "last of one sensor" and the export order without touching
      // other sensors' rows.
      await db.schema
        .createIndex('measurements_by_sensor_time')
        .on('measurements')
        .columns(['sensor_id', 'timestamp', 'measurement_id'])
        .execute();

      await db.schema
        .createTable('actuators')
        .addColumn('actuator_id', 'integer', identity)
        .addColumn('actuator_type', 'text', (c) => c.notNull())
        .addColumn('sensor_id', 'integer', (c) => c.notNull().references('sensors.sensor_id'))
        .addColumn('condition_value', float, (c) => c.notNull())
        .addColumn('activation_condition', 'text', (c) => c.notNull())
        .addColumn('activation_period', float, (c) => c.notNull())
        .addColumn('activation_duration', float, (c) => c.notNull())
        .addColumn('actuator_name', 'text')
        .addColumn('enabled', bool, (c) => c.notNull())
        .addColumn('last_activated', time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('actuators_by_sensor').on('actuators').columns(['sensor_id', 'actuator_id']).execute();

      await db.schema
        .createTable('users')
        .addColumn('user_id', 'integer', identity)
        .addColumn('username', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('permissions', 'integer', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('tokens_valid_after', time)
        .execute();

      await db.schema
        .createTable('settings')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('pictures')
        .addColumn('picture_id', 'integer', (c) => c.primaryKey())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('bytes', bytes, (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['pictures', 'settings', 'users', 'actuators', 'measurements', 'sensors', 'prototypes']) {
        await sql`drop table if exists ${sql.table(table)}`.execute(db);
      }
    },
  };
}

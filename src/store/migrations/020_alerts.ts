import { type Kysely, type Migration, sql } from 'kysely';
import type { SchemaTypes } from '../dialect.js';

/**
 * Alerts (docs/api.md §11): the alerts themselves, each sensor's level as last evaluated, and the
 * outbox of webhook notifications. "At most one active alert per sensor and kind" is the schema's
 * rule (a partial unique index), so it holds whichever process or code path writes.
 */
export function alertsMigration({ time, float, bigId, identity }: SchemaTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('alerts')
        .addColumn('alert_id', 'integer', identity)
        .addColumn('sensor_id', 'integer', (c) => c.notNull().references('sensors.sensor_id'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('severity', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('raised_at', time, (c) => c.notNull())
        .addColumn('cleared_at', time)
        .addColumn('acknowledged_at', time)
        .addColumn('acknowledged_by', 'text')
        .addColumn('value', float)
        .addColumn('peak', float)
        .addColumn('last_value', float)
        .execute();
      await sql`create unique index alerts_one_active on alerts (sensor_id, kind) where state = 'active'`.execute(db);
      await db.schema.createIndex('alerts_by_sensor').on('alerts').columns(['sensor_id', 'alert_id']).execute();
      await db.schema.createIndex('alerts_by_state').on('alerts').columns(['state', 'alert_id']).execute();

      await db.schema
        .createTable('alert_levels')
        .addColumn('sensor_id', 'integer', (c) => c.primaryKey().references('sensors.sensor_id'))
        .addColumn('level', 'text')
        .addColumn('ok_since', time)
        .execute();

      await db.schema
        .createTable('alert_notifications')
        .addColumn('notification_id', bigId, identity)
        .addColumn('alert_id', 'integer', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('idempotency_key', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', time, (c) => c.notNull())
        .addColumn('last_error', 'text')
        .execute();
      await db.schema
        .createIndex('alert_notifications_by_chain')
        .on('alert_notifications')
        .columns(['url', 'alert_id', 'notification_id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await sql`drop table if exists alert_notifications`.execute(db);
      await sql`drop table if exists alert_levels`.execute(db);
      await sql`drop table if exists alerts`.execute(db);
    },
  };
}

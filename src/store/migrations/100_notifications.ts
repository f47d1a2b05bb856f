import { type Kysely, type Migration, sql } from 'kysely';
import type { SchemaTypes } from '../dialect.js';

/**
 * Notifications that wake a grower (docs/notifications.md): the channels an administrator sets
 * (their secrets only in sealed form), how far each alert's messages have gone (what was sent,
 * when it repeats, whether it escalated), and the acknowledge links already used (single use).
 * The messages themselves wait in the alert outbox (`alert_notifications`), one destination per
 * channel, so they share its at-least-once, in-order delivery.
 */
export function notificationsMigration({ time, bool, identity }: SchemaTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('notification_channels')
        .addColumn('channel_id', 'integer', identity)
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('min_severity', 'text', (c) => c.notNull())
        .addColumn('prototype_ids', 'text')
        .addColumn('quiet_from', 'text')
        .addColumn('quiet_to', 'text')
        .addColumn('escalation', bool, (c) => c.notNull())
        .addColumn('settings', 'text', (c) => c.notNull())
        .addColumn('sealed', 'text')
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('failing_since', time)
        .addColumn('failure_told', bool, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('notification_progress')
        .addColumn('alert_id', 'integer', (c) => c.primaryKey())
        .addColumn('severity', 'text', (c) => c.notNull())
        .addColumn('critical_since', time)
        .addColumn('sends', 'integer', (c) => c.notNull())
        .addColumn('next_repeat_at', time)
        .addColumn('escalated', bool, (c) => c.notNull())
        .addColumn('finished', bool, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('notification_links_used')
        .addColumn('nonce', 'text', (c) => c.primaryKey())
        .addColumn('used_at', time, (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await sql`drop table if exists notification_links_used`.execute(db);
      await sql`drop table if exists notification_progress`.execute(db);
      await sql`drop table if exists notification_channels`.execute(db);
    },
  };
}

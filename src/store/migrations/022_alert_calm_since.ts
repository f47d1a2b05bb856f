import { type Kysely, type Migration, sql } from 'kysely';
import type { SchemaTypes } from '../dialect.js';

/**
 * A critical alert de-escalates only once its sensor has stayed short of critical for
 * ALERT_CLEAR_AFTER (docs/api.md §11): each sensor's level row keeps since when that wait runs, as
 * `ok_since` does for the clear. Rows from before read null: the wait starts at the next evaluation.
 */
export function alertCalmSinceMigration({ time }: SchemaTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('alert_levels').addColumn('calm_since', time).execute();
    },
    async down(db: Kysely<unknown>) {
      await sql`alter table alert_levels drop column calm_since`.execute(db);
    },
  };
}

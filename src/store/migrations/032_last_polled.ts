import { type Kysely, type Migration, sql } from 'kysely';
import type { SchemaTypes } from '../dialect.js';

/**
 * When a controller last read its actuator's state or reported a run (docs/api.md §14 `last_polled`):
 * noted in memory on every poll and written here in batches, so that another instance, and this
 * one after a restart, can read it back. Existing actuators read null: never polled.
 */
export function lastPolledMigration({ time }: SchemaTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('actuators').addColumn('last_polled', time).execute();
    },
    async down(db: Kysely<unknown>) {
      await sql`alter table actuators drop column last_polled`.execute(db);
    },
  };
}

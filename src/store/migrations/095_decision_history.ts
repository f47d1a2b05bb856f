import { type Kysely, type Migration, sql } from 'kysely';
import type { SchemaTypes } from '../dialect.js';

/**
 * The history of each actuator's decision: one row each time its `reason` changes (a hold
 * beginning or ending), with the status then, whether it would run, and who caused it where a
 * person did (an unlock, a settings change). Kept as long as the actuator, as its doses are.
 */
export function decisionHistoryMigration({ time, bool, identity }: SchemaTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('actuator_decisions')
        .addColumn('decision_id', 'integer', identity)
        .addColumn('actuator_id', 'integer', (c) => c.notNull().references('actuators.actuator_id').onDelete('cascade'))
        .addColumn('at', time, (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('activate', bool, (c) => c.notNull())
        .addColumn('by', 'text')
        .execute();
      // A page of one actuator's history by time; the row after one (the end of its span) by id.
      await db.schema
        .createIndex('actuator_decisions_by_time')
        .on('actuator_decisions')
        .columns(['actuator_id', 'at', 'decision_id'])
        .execute();
      await db.schema.createIndex('actuator_decisions_by_id').on('actuator_decisions').columns(['actuator_id', 'decision_id']).execute();
    },
    async down(db: Kysely<unknown>) {
      await sql`drop table if exists actuator_decisions`.execute(db);
    },
  };
}

import { type Kysely, type Migration, sql } from 'kysely';
import type { SchemaTypes } from '../dialect.js';

/**
 * A grower's records (docs/api.md §15): calibrations of the sensors with each sensor's reminder
 * (`calibration_interval`, and the service's `calibrated_at` and `calibration_due`), the notes of
 * each prototype's journal with their tags, and `safety_events`, the history of lockouts, unlocks,
 * pauses and resumes, which the actuators and prototypes kept only as their current state. Each
 * record goes with what it belongs to (the schema cascades). Existing sensors read "no reminder",
 * existing stores an empty journal.
 */
export function calibrationsJournalMigration({ time, float, bool, identity }: SchemaTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('sensors').addColumn('calibration_interval', float).execute();
      await db.schema.alterTable('sensors').addColumn('calibrated_at', time).execute();
      await db.schema.alterTable('sensors').addColumn('calibration_due', time).execute();

      await db.schema
        .createTable('calibrations')
        .addColumn('calibration_id', 'integer', identity)
        .addColumn('sensor_id', 'integer', (c) => c.notNull().references('sensors.sensor_id').onDelete('cascade'))
        .addColumn('calibrated_at', time, (c) => c.notNull())
        .addColumn('points', 'text', (c) => c.notNull())
        .addColumn('slope', float, (c) => c.notNull())
        .addColumn('offset', float, (c) => c.notNull())
        .addColumn('accepted', bool, (c) => c.notNull())
        .addColumn('note', 'text')
        .addColumn('author', 'text')
        .execute();
      await db.schema
        .createIndex('calibrations_by_sensor_time')
        .on('calibrations')
        .columns(['sensor_id', 'calibrated_at', 'calibration_id'])
        .execute();

      await db.schema
        .createTable('notes')
        .addColumn('note_id', 'integer', identity)
        .addColumn('prototype_id', 'integer', (c) => c.notNull().references('prototypes.prototype_id').onDelete('cascade'))
        .addColumn('at', time, (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('author', 'text')
        .execute();
      await db.schema.createIndex('notes_by_prototype_time').on('notes').columns(['prototype_id', 'at', 'note_id']).execute();
      await db.schema.createIndex('notes_by_time').on('notes').columns(['at', 'note_id']).execute();

      await db.schema
        .createTable('note_tags')
        .addColumn('note_id', 'integer', (c) => c.notNull().references('notes.note_id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('tag', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('note_tags_key', ['note_id', 'position'])
        .execute();
      await db.schema.createIndex('note_tags_by_tag').on('note_tags').columns(['tag', 'note_id']).execute();

      await db.schema
        .createTable('safety_events')
        .addColumn('event_id', 'integer', identity)
        .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('lockout', 'unlock', 'pause', 'resume')`))
        .addColumn('at', time, (c) => c.notNull())
        .addColumn('actuator_id', 'integer', (c) => c.references('actuators.actuator_id').onDelete('cascade'))
        .addColumn('prototype_id', 'integer', (c) => c.references('prototypes.prototype_id').onDelete('cascade'))
        .addColumn('until', time)
        .addColumn('reason', 'text')
        .addColumn('author', 'text')
        .execute();
      await db.schema.createIndex('safety_events_by_actuator').on('safety_events').columns(['actuator_id', 'at']).execute();
      await db.schema.createIndex('safety_events_by_prototype').on('safety_events').columns(['prototype_id', 'at']).execute();
    },
    async down(db: Kysely<unknown>) {
      await sql`drop table if exists safety_events`.execute(db);
      await sql`drop table if exists note_tags`.execute(db);
      await sql`drop table if exists notes`.execute(db);
      await sql`drop table if exists calibrations`.execute(db);
      for (const name of ['calibration_due', 'calibrated_at', 'calibration_interval']) {
        await sql`alter table sensors drop column ${sql.ref(name)}`.execute(db);
      }
    },
  };
}

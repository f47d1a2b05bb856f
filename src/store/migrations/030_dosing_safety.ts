import { type ColumnDefinitionBuilder, type Kysely, type Migration, sql } from 'kysely';
import type { SchemaTypes } from '../dialect.js';

/**
 * Dosing safety (docs/api.md §14): the actuators' dose limits, response judging and lockout state,
 * the sensors' trust settings, the prototypes' pause, each actuator's interlocks and the record
 * of its doses. Every new column is null or has a default, so existing rows read as "no limit,
 * not locked, not paused" — except `lockout_after`, which existing pumps take at its default 20
 * like new ones: a pump that never moves its reading must stop on every install.
 */
export function dosingSafetyMigration({ time, float, bool, identity }: SchemaTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      type Build = (column: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;
      const actuatorColumns: [string, 'integer' | 'text' | typeof float | typeof time, Build?][] = [
        ['max_doses_per_hour', 'integer'],
        ['max_seconds_per_day', float],
        ['min_response', float, (c) => c.notNull().defaultTo(0)],
        ['response_delay', float],
        ['lockout_after', 'integer', (c) => c.defaultTo(20)],
        ['controller_timeout', float],
        ['lockout_since', time],
        ['lockout_reason', 'text'],
        ['unanswered_streak', 'integer', (c) => c.notNull().defaultTo(0)],
      ];
      for (const [name, type, build] of actuatorColumns) {
        await db.schema
          .alterTable('actuators')
          .addColumn(name, type, build ?? ((c) => c))
          .execute();
      }
      for (const name of ['valid_min', 'valid_max', 'stale_after', 'stuck_after']) {
        await db.schema.alterTable('sensors').addColumn(name, float).execute();
      }
      await db.schema.alterTable('prototypes').addColumn('paused_until', time).execute();

      await db.schema
        .createTable('actuator_interlocks')
        .addColumn('actuator_id', 'integer', (c) => c.notNull().references('actuators.actuator_id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('sensor_id', 'integer', (c) => c.notNull().references('sensors.sensor_id'))
        .addColumn('block_below', float)
        .addColumn('block_above', float)
        .addPrimaryKeyConstraint('actuator_interlocks_key', ['actuator_id', 'position'])
        .execute();
      // A sensor delete finds the actuators that use it as an interlock without a scan.
      await db.schema
        .createIndex('actuator_interlocks_by_sensor')
        .on('actuator_interlocks')
        .columns(['sensor_id', 'actuator_id'])
        .execute();

      await db.schema
        .createTable('activations')
        .addColumn('activation_id', 'integer', identity)
        .addColumn('actuator_id', 'integer', (c) => c.notNull().references('actuators.actuator_id').onDelete('cascade'))
        .addColumn('activated_at', time, (c) => c.notNull())
        .addColumn('duration', float, (c) => c.notNull())
        .addColumn('value_before', float)
        .addColumn('answered', bool)
        .execute();
      await db.schema.createIndex('activations_by_actuator_time').on('activations').columns(['actuator_id', 'activated_at']).execute();
    },
    async down(db: Kysely<unknown>) {
      await sql`drop table if exists activations`.execute(db);
      await sql`drop table if exists actuator_interlocks`.execute(db);
      await sql`alter table prototypes drop column paused_until`.execute(db);
      for (const name of ['valid_min', 'valid_max', 'stale_after', 'stuck_after']) {
        await sql`alter table sensors drop column ${sql.ref(name)}`.execute(db);
      }
      for (const name of [
        'max_doses_per_hour',
        'max_seconds_per_day',
        'min_response',
        'response_delay',
        'lockout_after',
        'controller_timeout',
        'lockout_since',
        'lockout_reason',
        'unanswered_streak',
      ]) {
        await sql`alter table actuators drop column ${sql.ref(name)}`.execute(db);
      }
    },
  };
}

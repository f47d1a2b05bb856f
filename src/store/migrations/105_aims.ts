import { type Kysely, type Migration, sql } from 'kysely';
import type { SchemaTypes } from '../dialect.js';

/**
 * Dosing that aims: each actuator's set point and band, how its doses are sized (fixed or
 * proportional, the fraction of the gap, the bounds, a gain to start from), its place in its
 * prototype's sequence of parts, and the schedule of a timed output (JSON text). Existing
 * actuators read: no set point, band 0, fixed doses — what they did before. Each judged dose keeps
 * how far the reading moved in the corrective direction; the pump's learned gain, made of them, is
 * kept on the actuator (null until it has 3 answered doses).
 */
export function aimsMigration({ float }: SchemaTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const add = (name: string, type: 'float' | 'integer' | 'text') =>
        db.schema
          .alterTable('actuators')
          .addColumn(name, type === 'float' ? float : type)
          .execute();
      await add('setpoint', 'float');
      await db.schema
        .alterTable('actuators')
        .addColumn('band', float, (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('actuators')
        .addColumn('dose_mode', 'text', (c) => c.notNull().defaultTo('fixed'))
        .execute();
      await db.schema
        .alterTable('actuators')
        .addColumn('dose_fraction', float, (c) => c.notNull().defaultTo(0.8))
        .execute();
      await db.schema
        .alterTable('actuators')
        .addColumn('min_duration', float, (c) => c.notNull().defaultTo(1))
        .execute();
      await add('max_duration', 'float');
      await add('initial_gain', 'float');
      await add('dose_order', 'integer');
      await add('schedule', 'text');
      await add('learned_gain', 'float');
      await db.schema.alterTable('activations').addColumn('moved', float).execute();
    },
    async down(db: Kysely<unknown>) {
      await sql`alter table activations drop column moved`.execute(db);
      for (const name of [
        'setpoint',
        'band',
        'dose_mode',
        'dose_fraction',
        'min_duration',
        'max_duration',
        'initial_gain',
        'dose_order',
        'schedule',
      ])
        await sql`alter table actuators drop column ${sql.ref(name)}`.execute(db);
    },
  };
}

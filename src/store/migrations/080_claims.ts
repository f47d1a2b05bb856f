import { type Kysely, type Migration, sql } from 'kysely';
import type { SchemaTypes } from '../dialect.js';

/**
 * A dose is a claim (docs/safety.md "A dose is a claim"): before a controller is told to run, a
 * claim is committed on the actuator (`claim_until`: the end of the run plus the grace, and the
 * dose it made, `claim_activation_id`), so that no other reader, on any instance, is told to run
 * meanwhile. Each actuator says which controller is told to act (`controller`: `http` polls the
 * state, `mqtt` follows the state topic). Each dose says whether its run was reported (existing
 * doses were all reports: true) and whether a person asked for it (`manual`).
 */
export function claimsMigration({ time, bool, float }: SchemaTypes): Migration {
  const yes = bool === 'integer' ? sql`1` : sql`true`;
  const no = bool === 'integer' ? sql`0` : sql`false`;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('actuators')
        .addColumn('controller', 'text', (c) => c.notNull().defaultTo('http'))
        .execute();
      await db.schema.alterTable('actuators').addColumn('claim_until', time).execute();
      await db.schema.alterTable('actuators').addColumn('claim_activation_id', 'integer').execute();
      // A run asked for by a person (POST /actuators/{id}/run), waiting for its controller's next read.
      await db.schema.alterTable('actuators').addColumn('manual_run_seconds', float).execute();
      await db.schema
        .alterTable('activations')
        .addColumn('reported', bool, (c) => c.notNull().defaultTo(yes))
        .execute();
      await db.schema
        .alterTable('activations')
        .addColumn('manual', bool, (c) => c.notNull().defaultTo(no))
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const name of ['manual', 'reported']) await sql`alter table activations drop column ${sql.ref(name)}`.execute(db);
      for (const name of ['manual_run_seconds', 'claim_activation_id', 'claim_until', 'controller'])
        await sql`alter table actuators drop column ${sql.ref(name)}`.execute(db);
    },
  };
}

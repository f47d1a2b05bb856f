import { type ColumnDefinitionBuilder, type Kysely, type Migration, sql } from 'kysely';
import type { SchemaTypes, StoreKind } from '../dialect.js';

type Build = (column: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;

/**
 * Judging doses by their outcome. `min_response` becomes nullable, null meaning automatic (the
 * probe's own noise sets the threshold); pumps that kept the old default 0 take the automatic
 * judging, since 0 let the noise of a probe answer the doses of an empty bottle. New settings:
 * `lockout_reversed_after` (default 3), `usual_days` (7), `usual_window` (6 h) and
 * `unusual_factor` (2.0); new state: `usual_since` (the start of the learning of the usual
 * dosing, moved by an unlock) and `lockout_kind` (null for a lockout, `unusual` for a hold on
 * unusual consumption). Each dose keeps how far it moved the filtered reading (`response`) and
 * whether that was the wrong way (`reversed`).
 */
export function doseJudgingMigration({ time, float, bool }: SchemaTypes, kind: StoreKind): Migration {
  const actuatorColumns: [string, 'integer' | 'text' | typeof float | typeof time, Build?][] = [
    ['lockout_reversed_after', 'integer', (c) => c.defaultTo(3)],
    ['usual_days', 'integer', (c) => c.notNull().defaultTo(7)],
    ['usual_window', float, (c) => c.notNull().defaultTo(21600)],
    ['unusual_factor', float, (c) => c.defaultTo(2)],
    ['usual_since', time],
    ['lockout_kind', 'text'],
  ];
  return {
    async up(db: Kysely<unknown>) {
      if (kind === 'postgres') {
        await sql`alter table actuators alter column min_response drop not null, alter column min_response drop default`.execute(db);
        await sql`update actuators set min_response = null where min_response = 0`.execute(db);
      } else {
        // SQLite cannot drop NOT NULL in place: the column is made anew and the explicit values copied.
        await sql`alter table actuators add column min_response_explicit real`.execute(db);
        await sql`update actuators set min_response_explicit = min_response where min_response <> 0`.execute(db);
        await sql`alter table actuators drop column min_response`.execute(db);
        await sql`alter table actuators rename column min_response_explicit to min_response`.execute(db);
      }
      for (const [name, type, build] of actuatorColumns) {
        await db.schema
          .alterTable('actuators')
          .addColumn(name, type, build ?? ((c) => c))
          .execute();
      }
      await db.schema.alterTable('activations').addColumn('response', float).execute();
      await db.schema.alterTable('activations').addColumn('reversed', bool).execute();
    },
    async down(db: Kysely<unknown>) {
      await sql`alter table activations drop column reversed`.execute(db);
      await sql`alter table activations drop column response`.execute(db);
      for (const [name] of actuatorColumns) await sql`alter table actuators drop column ${sql.ref(name)}`.execute(db);
      await sql`update actuators set min_response = 0 where min_response is null`.execute(db);
      if (kind === 'postgres') {
        await sql`alter table actuators alter column min_response set not null, alter column min_response set default 0`.execute(db);
      }
    },
  };
}

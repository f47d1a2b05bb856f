import { type Kysely, type Migration, sql } from 'kysely';
import type { StoreKind } from '../dialect.js';

/** Every floating-point column, by table. */
const FLOAT_COLUMNS: Record<string, string[]> = {
  measurements: ['value'],
  sensors: ['threshold_critically_low', 'threshold_low', 'threshold_high', 'threshold_critically_high'],
  actuators: ['condition_value', 'activation_period', 'activation_duration'],
};

/**
 * The stores refuse a number that is not finite, whatever path tries to write it: Infinity and
 * NaN have no JSON form, so a row holding one could never be answered.
 *
 * What such rows exist already is mended first: a measurement that is not finite was never a
 * reading and is deleted; an infinite threshold or actuator setting becomes the largest double of
 * its sign (a NaN one, 0), so the sensor and its actuators stay.
 *
 * PostgreSQL gets CHECK constraints. SQLite cannot add a CHECK to an existing table without
 * copying the whole table, so there the same rule is a pair of triggers per table (insert and
 * update) that abort the statement. SQLite keeps NaN as NULL, which NOT NULL already refuses;
 * 9e999 is how SQLite writes infinity.
 */
export function finiteNumbersMigration(kind: StoreKind): Migration {
  const pg = kind === 'postgres';
  const infinite = (column: string) =>
    pg ? sql`${sql.ref(column)} in ('Infinity'::float8, '-Infinity'::float8)` : sql`abs(${sql.ref(column)}) = 9e999`;
  const notFinite = (column: string) =>
    pg ? sql`${sql.ref(column)} in ('Infinity'::float8, '-Infinity'::float8, 'NaN'::float8)` : sql`abs(${sql.ref(column)}) = 9e999`;

  return {
    async up(db: Kysely<unknown>) {
      await sql`delete from measurements where ${notFinite('value')}`.execute(db);
      for (const table of ['sensors', 'actuators']) {
        for (const column of FLOAT_COLUMNS[table]) {
          const col = sql.ref(column);
          await sql`update ${sql.table(table)} set ${col} = cast(case when ${col} > 0 then ${Number.MAX_VALUE} else ${-Number.MAX_VALUE} end as double precision)
            where ${infinite(column)}`.execute(db);
          if (pg) await sql`update ${sql.table(table)} set ${col} = 0 where ${col} = 'NaN'::float8`.execute(db);
        }
      }

      for (const [table, columns] of Object.entries(FLOAT_COLUMNS)) {
        if (pg) {
          for (const column of columns) {
            await sql`alter table ${sql.table(table)} add constraint ${sql.ref(`${table}_${column}_finite`)}
              check (not (${notFinite(column)}))`.execute(db);
          }
          continue;
        }
        const anyNotFinite = sql.join(
          columns.map((column) => sql`abs(new.${sql.ref(column)}) = 9e999`),
          sql` or `,
        );
        const message = sql.lit(`${table}: ${columns.join(', ')} must be finite`);
        for (const event of ['insert', 'update'] as const) {
          await sql`create trigger ${sql.ref(`${table}_finite_${event}`)} before ${sql.raw(event)} on ${sql.table(table)}
            when ${anyNotFinite}
            begin select raise(abort, ${message}); end`.execute(db);
        }
      }
    },
    async down(db: Kysely<unknown>) {
      for (const [table, columns] of Object.entries(FLOAT_COLUMNS)) {
        if (pg) {
          for (const column of columns) {
            await sql`alter table ${sql.table(table)} drop constraint if exists ${sql.ref(`${table}_${column}_finite`)}`.execute(db);
          }
        } else {
          for (const event of ['insert', 'update']) await sql`drop trigger if exists ${sql.ref(`${table}_finite_${event}`)}`.execute(db);
        }
      }
    },
  };
}

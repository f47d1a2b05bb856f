import { type Kysely, type Migration, sql } from 'kysely';
import type { StoreKind } from '../dialect.js';

/** The free-text columns an older version took unchecked. */
const TEXT_COLUMNS: [string, string][] = [
  ['prototypes', 'prototype_name'],
  ['sensors', 'sensor_unit'],
  ['actuators', 'actuator_name'],
];

/**
 * Requests can no longer carry a NUL character (PostgreSQL text cannot hold one). A SQLite store
 * may hold some from before; each becomes U+FFFD, the replacement character, so the name stays
 * readable and the store can be copied to PostgreSQL. PostgreSQL never held one: nothing to do.
 */
export function noNulMigration(kind: StoreKind): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (kind === 'postgres') return;
      for (const [table, column] of TEXT_COLUMNS) {
        // SQLite's text functions stop at a NUL, so the rows are found by their bytes and mended here.
        const rows = await sql<{ id: number; text: string }>`select rowid as id, ${sql.ref(column)} as text from ${sql.table(table)}
          where instr(cast(${sql.ref(column)} as blob), x'00') > 0`.execute(db);
        for (const { id, text } of rows.rows) {
          await sql`update ${sql.table(table)} set ${sql.ref(column)} = ${text.replaceAll('\u0000', '\ufffd')} where rowid = ${id}`.execute(
            db,
          );
        }
      }
    },
    async down() {},
  };
}

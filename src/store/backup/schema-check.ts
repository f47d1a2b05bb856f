/**
 * Restore checks the schema (docs/operations.md): a backup must hold exactly the tables, columns,
 * indexes, views and triggers that the service's own migrations make — up to the migration the
 * backup was last migrated to, so that an older backup still restores (the service migrates it
 * forward at its next start). A foreign trigger could undo lockouts and doses from inside the
 * store; a missing column serves "Locked out since undefined". Any difference is named.
 */
import SQLite from 'better-sqlite3';
import { Migrator } from 'kysely';
import { openSqlite } from '../sqlite/connection.js';
import { sqliteDialect } from '../sqlite/dialect.js';
import { migrationProvider } from '../migrations/index.js';

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** One line per schema object and per column: what two schemas are compared by. */
function describeSchema(db: SQLite.Database): Set<string> {
  const lines = new Set<string>();
  const objects = db
    .prepare(`select type, name, tbl_name, sql from sqlite_master where name not like 'sqlite\\_%' escape '\\' order by type, name`)
    .all() as { type: string; name: string; tbl_name: string; sql: string | null }[];
  for (const { type, name, tbl_name: table, sql } of objects) {
    if (type === 'table') {
      lines.add(`table ${name}`);
      const columns = db.prepare(`select name, type, "notnull" as nn, dflt_value as dflt, pk from pragma_table_xinfo(?)`).all(name) as {
        name: string;
        type: string;
        nn: number;
        dflt: string | null;
        pk: number;
      }[];
      for (const c of columns) {
        lines.add(
          `column ${name}.${c.name} ${c.type.toLowerCase()}${c.nn ? ' not null' : ''}${c.dflt === null ? '' : ` default ${c.dflt}`}${c.pk ? ` pk ${c.pk}` : ''}`,
        );
      }
    } else {
      // An index, view or trigger is what its statement says (whitespace aside); SQLite's own indexes have none.
      lines.add(`${type} ${name} on ${table}${sql === null ? '' : `: ${sql.replace(/\s+/g, ' ').trim()}`}`);
    }
  }
  return lines;
}

/** The migrations a store file records as applied, in order. */
function appliedMigrations(db: SQLite.Database): string[] {
  const rows = db.prepare('select name from kysely_migration order by name').all() as { name: string }[];
  return rows.map((r) => r.name).sort(byCodeUnits);
}

/** The schema a fresh store has after the migrations up to and including `last`, in memory. */
async function schemaAfter(last: string): Promise<Set<string>> {
  const fresh = openSqlite('sqlite::memory:');
  try {
    const { error } = await new Migrator({
      db: fresh.db,
      provider: migrationProvider(sqliteDialect),
      nameComparator: byCodeUnits,
    }).migrateTo(last);
    if (error) throw error;
    return describeSchema(fresh.sqlite);
  } finally {
    await fresh.db.destroy();
  }
}

/**
 * How the schema of the SQLite file `file` differs from what the migrations make; empty when it
 * does not. Each difference is a line a person can act on ("extra trigger x on actuators: …",
 * "missing column sensors.valid_min real").
 */
export async function schemaDifferences(file: string): Promise<string[]> {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  let found: Set<string>;
  let applied: string[];
  try {
    found = describeSchema(db);
    applied = appliedMigrations(db);
  } finally {
    db.close();
  }
  const known = Object.keys(await migrationProvider(sqliteDialect).getMigrations()).sort(byCodeUnits);
  const unknown = applied.filter((name) => !known.includes(name));
  if (unknown.length > 0) return [`migrations this version does not know (a newer version made it): ${unknown.join(', ')}`];
  if (applied.length === 0) return ['no migration recorded (kysely_migration is empty)'];
  // Each applied migration must be the next one in order: a gap means a schema no version made.
  const gap = applied.findIndex((name, i) => name !== known[i]);
  if (gap !== -1) return [`migrations out of order: ${applied[gap]} where ${known[gap]} should be`];
  const expected = await schemaAfter(applied[applied.length - 1]);
  const differences: string[] = [];
  for (const line of expected) if (!found.has(line)) differences.push(`missing ${line}`);
  for (const line of found) if (!expected.has(line)) differences.push(`extra ${line}`);
  return differences;
}

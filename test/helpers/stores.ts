import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { inject } from 'vitest';
import type { Database } from '../../src/store/database.js';
import type { Dialect, StoreKind } from '../../src/store/dialect.js';
import type { Store } from '../../src/store/index.js';
import { insidesOf } from '../../src/store/insides.js';
import { openPostgres } from '../../src/store/postgres/connection.js';
import { postgresDialect } from '../../src/store/postgres/dialect.js';
import { openSqlite } from '../../src/store/sqlite/connection.js';
import { sqliteDialect } from '../../src/store/sqlite/dialect.js';
import { emptyPostgresDatabase, releasePostgresDatabase, withDatabase } from './scratch-postgres.js';

/** The stores the suite runs against: SQLite always, PostgreSQL when TEST_DATABASE_URL is set. */
export function storeKinds(): StoreKind[] {
  return process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh, empty database: a SQLite file in a temporary folder, or an empty PostgreSQL database. */
export async function scratchDatabase(kind: StoreKind): Promise<ScratchDatabase> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'sensorhub-test-'));
    return { url: `sqlite:${join(dir, 'sensorhub.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const adminUrl = process.env.TEST_DATABASE_URL as string;
  const name = await emptyPostgresDatabase(adminUrl, inject('databasePrefix'));
  let released: Promise<void> | undefined;
  return {
    url: withDatabase(adminUrl, name),
    // Once only: a second release would hand the database to two files at once.
    drop: () => (released ??= releasePostgresDatabase(adminUrl, name)),
  };
}

/** A connection to a store with nothing run on it (no migration, no defaults), and the store's dialect. */
export function bareConnection(kind: StoreKind, url: string): { db: Kysely<Database>; dialect: Dialect } {
  return kind === 'sqlite' ? { db: openSqlite(url).db, dialect: sqliteDialect } : { db: openPostgres(url).db, dialect: postgresDialect };
}

/** The query builder a store opened by `openStore` runs on (its public face does not show it). */
export const dbOf = (store: Store): Kysely<Database> => insidesOf(store).db;
/** The dialect of a store opened by `openStore`. */
export const dialectOf = (store: Store): Dialect => insidesOf(store).dialect;

/**
 * When the suite's PostgreSQL is reached through a pooler in transaction mode
 * (TEST_DATABASE_DIRECT_PORT names the server's own port), the relay's LISTEN goes to the server
 * itself: DATABASE_LISTEN_URL, as an operator sets it. Nothing otherwise.
 */
export function listenEnv(databaseUrl: string | undefined): Record<string, string> {
  const port = process.env.TEST_DATABASE_DIRECT_PORT;
  if (!port || !databaseUrl?.startsWith('postgres')) return {};
  const url = new URL(databaseUrl);
  url.port = port;
  return { DATABASE_LISTEN_URL: url.toString() };
}

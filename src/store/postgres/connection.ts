import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import Cursor from 'pg-cursor';
import type { Database } from '../database.js';
import type { OpenStoreOptions } from '../store.js';

export interface PostgresConnection {
  db: Kysely<Database>;
  /** The pool, for the few paths that need a client of their own or prepared statements. */
  pool: pg.Pool;
}

/** `2026-11-22 09:30:00.123456+00` (the session runs in UTC) → epoch ms. */
function parsePgTimestamptz(text: string): number {
  const iso = text.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00');
  return Date.parse(iso);
}

let pgTypesSet = false;
function setPgTypeParsers(): void {
  if (pgTypesSet) return;
  pgTypesSet = true;
  // Measurement ids are bigint; they stay far below 2^53, so plain numbers are exact.
  pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
  pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, parsePgTimestamptz);
}

export function openPostgres(databaseUrl: string, options: OpenStoreOptions = {}): PostgresConnection {
  setPgTypeParsers();
  const statementTimeout = options.statementTimeoutMs ?? 60_000;
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: options.poolSize ?? 10,
    // No request waits longer than the documented limits: for a connection (connect timeout), for
    // a statement (statement_timeout on the server), and for a server that stopped answering
    // (query_timeout, the same limit kept by the client, which needs no reply to fire).
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    idleTimeoutMillis: 30_000,
    statement_timeout: statementTimeout,
    query_timeout: statementTimeout,
    keepAlive: true,
    options: '-c TimeZone=UTC',
  });
  // A connection dropped while idle in the pool must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  // The same for a connection that breaks while checked out: its query fails and says so.
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool, cursor: Cursor }) });
  return { db, pool };
}

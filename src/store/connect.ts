import { resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import Cursor from 'pg-cursor';
import type { Database } from './database.js';
import type { StoreKind } from './dialect.js';
import { createPrivateStoreFile } from './file-permissions.js';
import { watchWrites } from './sqlite-write-watch.js';

export interface Connection {
  kind: StoreKind;
  db: Kysely<Database>;
  /** The SQLite handle, for the few hot paths that use prepared statements directly. */
  sqlite?: SQLite.Database;
  /** The SQLite file, for connections of other kinds (the read-only hot-path reader). */
  sqliteFile?: string;
  /** SQLite: `listener` is called after every statement the query builder runs that may write. */
  onQueryBuilderWrite?(listener: () => void): void;
  /** The PostgreSQL pool, for the few paths that need a client of their own. */
  pool?: pg.Pool;
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

export function sqlitePath(databaseUrl: string): string {
  return resolve(databaseUrl.replace(/^sqlite:(\/\/)?/, ''));
}

function openSqlite(databaseUrl: string, synchronous: 'normal' | 'full' = 'normal'): Connection {
  // sqlite::memory: is a store that lives as long as the process (demos, experiments).
  const inMemory = databaseUrl === 'sqlite::memory:';
  const file = inMemory ? ':memory:' : sqlitePath(databaseUrl);
  if (!inMemory) createPrivateStoreFile(file);
  const sqlite = new SQLite(file);
  // WAL lets readers run beside the writer; NORMAL sync keeps every commit atomic and survives a
  // process crash (a power cut may lose the last commits, never corrupt the file: see README).
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma(`synchronous = ${synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const listeners: (() => void)[] = [];
  const database = watchWrites(sqlite, () => {
    for (const listener of listeners) listener();
  });
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  return { kind: 'sqlite', db, sqlite, sqliteFile: inMemory ? undefined : file, onQueryBuilderWrite: (listener) => listeners.push(listener) };
}

export interface PostgresOptions {
  /** SQLite: `full` makes every commit survive a power cut, at the cost of an fsync per commit. */
  sqliteSynchronous?: 'normal' | 'full';
  poolSize?: number;
  statementTimeoutMs?: number;
  connectTimeoutMs?: number;
}

function openPostgres(databaseUrl: string, options: PostgresOptions = {}): Connection {
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
  return { kind: 'postgres', db, pool };
}

export function connect(databaseUrl: string, options: PostgresOptions = {}): Connection {
  return databaseUrl.startsWith('sqlite:') ? openSqlite(databaseUrl, options.sqliteSynchronous) : openPostgres(databaseUrl, options);
}

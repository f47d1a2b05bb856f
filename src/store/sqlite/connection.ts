import { resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from '../database.js';
import { createPrivateStoreFile } from './file-permissions.js';
import { watchWrites } from './write-watch.js';

export interface SqliteConnection {
  db: Kysely<Database>;
  /** The SQLite handle, for the few hot paths that use prepared statements directly. */
  sqlite: SQLite.Database;
  /** The file, for connections of other kinds (the read-only hot-path reader); none in memory. */
  file: string | undefined;
  /** `listener` is called after every statement the query builder runs that may write. */
  onQueryBuilderWrite(listener: () => void): void;
}

/**
 * Each connection's page cache: SQLite's own default of 2 MB (a negative size is in KiB) rather
 * than the 16 MB better-sqlite3 builds it with. On a small board the pages of a store a year old
 * would otherwise fill 16 MB per connection, held for good; the kernel's file cache serves a miss.
 */
export const PAGE_CACHE_SIZE = -2000;

function sqlitePath(databaseUrl: string): string {
  return resolve(databaseUrl.replace(/^sqlite:(\/\/)?/, ''));
}

export function openSqlite(databaseUrl: string, synchronous: 'normal' | 'full' = 'normal'): SqliteConnection {
  // sqlite::memory: is a store that lives as long as the process (demos, experiments).
  const inMemory = databaseUrl === 'sqlite::memory:';
  const file = inMemory ? ':memory:' : sqlitePath(databaseUrl);
  if (!inMemory) createPrivateStoreFile(file);
  const sqlite = new SQLite(file);
  // WAL lets readers run beside the writer; NORMAL sync keeps every commit atomic and survives a
  // process crash (a power cut may lose the last commits, never corrupt the file: see docs/operations.md, Durability).
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma(`synchronous = ${synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma(`cache_size = ${PAGE_CACHE_SIZE}`);
  const listeners: (() => void)[] = [];
  const database = watchWrites(sqlite, () => {
    for (const listener of listeners) listener();
  });
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  return { db, sqlite, file: inMemory ? undefined : file, onQueryBuilderWrite: (listener) => listeners.push(listener) };
}

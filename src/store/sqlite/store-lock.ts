import { closeSync, openSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import { realPathOf } from '../backup/paths.js';

/**
 * Whether a process has the store open, told by a lock file beside it (`<db>.lock`, an empty SQLite
 * file): every process that opens the store holds a shared lock on it for as long as it runs
 * (several may: the service and a CLI), and a restore takes it exclusively or refuses. The locks
 * are the operating system's (fcntl): a process that dies, even by SIGKILL, leaves none behind.
 * Beside the store's real file: a service that opened it through a symbolic link and a restore
 * given its real path (or another link) take the same lock.
 */
export const lockFileOf = (file: string) => `${realPathOf(file)}.lock`;

function lockDatabase(file: string, timeoutMs: number): SQLite.Database {
  const lockFile = lockFileOf(file);
  closeSync(openSync(lockFile, 'a', 0o600));
  return new SQLite(lockFile, { timeout: timeoutMs });
}

/** Holds the shared lock until `release` (or the process's end). */
export function holdStoreLock(file: string): () => void {
  // A restore holds the exclusive lock for a moment only: wait for it rather than fail.
  const lock = lockDatabase(file, 5000);
  lock.exec('BEGIN');
  lock.prepare('select count(*) from sqlite_master').pluck().get();
  return () => {
    if (lock.open) lock.close();
  };
}

/** The exclusive lock, or undefined while any process holds the store; `release` frees it. */
export function takeStoreExclusively(file: string): (() => void) | undefined {
  const lock = lockDatabase(file, 0);
  try {
    lock.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    lock.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') return undefined;
    throw error;
  }
  return () => lock.close();
}

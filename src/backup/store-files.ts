import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ConfigError } from '../config/index.js';
import { realPathOf, sqliteFileOf } from '../store/index.js';
import { isPartial, timeOfBackup } from './names.js';

/** The files a SQLite store lives in: itself, its WAL, shared memory, rollback journal and lock. */
const STORE_SUFFIXES = ['', '-wal', '-shm', '-journal', '.lock'];

/** A file's identity on its disk (device and inode): the same for every name and link of it. */
const identityOf = (path: string): string | undefined => {
  try {
    const stat = statSync(path);
    return `${stat.dev}:${stat.ino}`;
  } catch {
    return undefined;
  }
};

/**
 * The store's own files, by identity and by real path, so that rotation can tell them from backups
 * whatever name or link they are reached by. Empty for PostgreSQL and a store in memory.
 */
export interface StoreFiles {
  /** Whether `path` (a link followed) is one of the store's files. */
  holds(path: string): boolean;
}

export function storeFilesOf(databaseUrl: string): StoreFiles {
  const file = sqliteFileOf(databaseUrl);
  const paths = file === undefined ? [] : STORE_SUFFIXES.map((suffix) => file + suffix);
  return {
    holds(path) {
      const real = realPathOf(path);
      if (paths.includes(real)) return true;
      const identity = identityOf(path);
      return identity !== undefined && paths.some((own) => identityOf(own) === identity);
    },
  };
}

const isBackupName = (name: string) => timeOfBackup(name) !== undefined || isPartial(name);

/**
 * Refuses a SQLite store that is (or links to) a file of BACKUP_DIR under a backup's name: rotation
 * deletes the oldest of those, and a store put back by pointing DATABASE_URL at a backup would be
 * deleted under the running service.
 */
export function assertStoreOutsideBackups(databaseUrl: string, backupDir: string): void {
  const file = sqliteFileOf(databaseUrl);
  if (file === undefined) return;
  const problem = () =>
    new ConfigError(
      'DATABASE_URL',
      `the store ${file} is a backup of BACKUP_DIR (${backupDir}), which rotation deletes in time: ` +
        'copy the backup elsewhere (or use sensorhub restore) and point DATABASE_URL at that',
    );
  if (dirname(file) === realPathOf(backupDir) && isBackupName(basename(file))) throw problem();
  const store = new Set(STORE_SUFFIXES.map((suffix) => identityOf(file + suffix)).filter((id) => id !== undefined));
  if (store.size === 0) return;
  let names: string[];
  try {
    names = readdirSync(backupDir);
  } catch {
    return;
  }
  for (const name of names.filter(isBackupName)) {
    const identity = identityOf(join(backupDir, name));
    if (identity !== undefined && store.has(identity)) throw problem();
  }
}

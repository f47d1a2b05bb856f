import { chmodSync, copyFileSync, existsSync, linkSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { fsyncPath } from '../fsync.js';
import { takeStoreExclusively } from '../sqlite/store-lock.js';
import { sqliteFileOf } from './paths.js';
import { schemaDifferences } from './schema-check.js';
import { checkSqliteCopy } from './sqlite-file.js';

export type RestoreResult =
  { restored: true; replaced: string[] } | { restored: false; reason: 'not-sqlite' | 'bad-backup' | 'in-use'; detail: string };

/**
 * Puts a backup in place of a SQLite store that no process holds (see store-lock.ts). The backup
 * is checked first (integrity, the service's tables, the schema its migrations make) and copied beside the store; the current
 * store keeps its name with `.replaced-<stamp>` (its WAL and shared memory too); then the copy is
 * renamed over the store in one step, so the store's name always opens some whole store.
 */
export async function restoreSqliteStore(databaseUrl: string, backupFile: string, stamp: string): Promise<RestoreResult> {
  const store = sqliteFileOf(databaseUrl);
  if (!store) return { restored: false, reason: 'not-sqlite', detail: 'restore works on SQLite stores only' };
  const check = await checkBackupCopyOf(backupFile);
  if (!check.ok) return { restored: false, reason: 'bad-backup', detail: check.problems.join('; ') };
  const release = takeStoreExclusively(store);
  if (!release) return { restored: false, reason: 'in-use', detail: `a process holds the store ${store} (stop the service first)` };
  try {
    const incoming = `${store}.restoring-${stamp}`;
    copyFileSync(backupFile, incoming);
    chmodSync(incoming, 0o600);
    fsyncPath(incoming);
    const replaced: string[] = [];
    if (existsSync(store)) {
      linkSync(store, `${store}.replaced-${stamp}`);
      replaced.push(`${store}.replaced-${stamp}`);
      for (const suffix of ['-wal', '-shm']) {
        if (!existsSync(store + suffix)) continue;
        renameSync(store + suffix, `${store}.replaced-${stamp}${suffix}`);
        replaced.push(`${store}.replaced-${stamp}${suffix}`);
      }
    }
    renameSync(incoming, store);
    fsyncPath(dirname(store));
    return { restored: true, replaced };
  } finally {
    release();
  }
}

/**
 * A file given to restore: a whole SQLite file with the service's tables (counts are not known),
 * whose schema is exactly what the migrations make (schema-check.ts).
 */
async function checkBackupCopyOf(file: string): Promise<{ ok: boolean; problems: string[] }> {
  if (!existsSync(file)) return { ok: false, problems: [`${file} does not exist`] };
  // The check converts the file to one self-contained file in place; the backup is the operator's, so a scratch copy is read.
  const scratch = `${file}.checking-${process.pid}`;
  copyFileSync(file, scratch);
  try {
    const check = await checkSqliteCopy(scratch);
    if (!check.ok) return check;
    const differences = await schemaDifferences(scratch);
    if (differences.length === 0) return check;
    return { ok: false, problems: [`its schema is not the one the service's migrations make: ${differences.join('; ')}`] };
  } finally {
    rmSync(scratch, { force: true });
  }
}

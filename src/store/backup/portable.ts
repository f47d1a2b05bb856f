import { rmSync } from 'node:fs';
import { copyStore } from '../copy.js';
import { openSqliteStore } from '../sqlite/index.js';
import { lockFileOf } from '../sqlite/store-lock.js';
import type { Store } from '../store.js';
import type { BackupProgress, TableCounts } from './types.js';

/**
 * The portable backup of any store: a new SQLite file at `dest`, migrated, filled by the copy tool
 * (copy.ts) table by table. Answers the rows written per table: what the copy must hold.
 */
export async function portableCopy(from: Store, dest: string, progress: BackupProgress): Promise<TableCounts> {
  const to = await openSqliteStore(`sqlite:${dest}`, { seedDefaults: false });
  const copied: TableCounts = {};
  try {
    await copyStore(from, to, (table, rows, total) => {
      copied[table] = rows;
      progress({ part: table, copied: rows, total });
    });
  } finally {
    await to.close();
    rmSync(lockFileOf(dest), { force: true });
  }
  return copied;
}

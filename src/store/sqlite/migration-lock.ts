import type SQLite from 'better-sqlite3';

const RETRY_MS = 50;

/**
 * Runs the migrations in one write transaction taken at once (`BEGIN IMMEDIATE`): the pending
 * migrations commit together or not at all, so a crash or a power cut mid-way leaves the store as
 * it was; and a second process starting on the same file (the service and a CLI, say) waits for
 * the first, then finds the schema migrated instead of creating its tables a second time.
 * SQLite runs DDL in transactions; the query builder's migrator only assumes it does not.
 */
export async function inOneWriteTransaction(sqlite: SQLite.Database, migrate: () => Promise<void>, onWait: () => void): Promise<void> {
  // The wait for the lock is taken in steps on timers rather than in SQLite's busy handler, which
  // would hold this process's event loop the while.
  const busyTimeout = sqlite.pragma('busy_timeout', { simple: true }) as number;
  sqlite.pragma('busy_timeout = 0');
  let waited = false;
  try {
    for (;;) {
      try {
        sqlite.exec('BEGIN IMMEDIATE');
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
        if (!waited) onWait();
        waited = true;
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
  } finally {
    sqlite.pragma(`busy_timeout = ${busyTimeout}`);
  }
  try {
    await migrate();
    sqlite.exec('COMMIT');
  } catch (error) {
    if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
    throw error;
  }
}

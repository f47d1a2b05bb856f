import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Statements that only read: everything else (insert, update, delete, commit, pragma…) may change data. */
const READ_ONLY = /^\s*select\b/i;

/** The query builder's `rollback` of a transaction that failed. */
const ROLLBACK = /^\s*rollback\s*;?\s*$/i;

/**
 * A rollback that does nothing when SQLite already rolled the transaction back on its own (it
 * may on SQLITE_FULL, a disk I/O error or no memory). Otherwise the query builder's rollback
 * would fail ("no transaction is active") and its error would replace the one that says why the
 * transaction failed (the disk is full: a 507, not a 500).
 */
function rollbackUnlessGone(sqlite: SQLite.Database, afterWrite: () => void): SqliteStatement {
  const statement = sqlite.prepare('rollback');
  const run = () => {
    try {
      return sqlite.inTransaction ? statement.run() : { changes: 0, lastInsertRowid: 0 };
    } finally {
      afterWrite();
    }
  };
  return {
    reader: false,
    all: () => (run(), []),
    run,
    iterate: () => {
      run();
      return [][Symbol.iterator]();
    },
  };
}

/**
 * The SQLite handle as the query builder sees it, calling `afterWrite` once every statement that
 * may have changed data has run (a `commit` included). What caches committed data in this
 * process learns from it that its copy may be out of date, whichever repository did the write.
 */
export function watchWrites(sqlite: SQLite.Database, afterWrite: () => void): SqliteDatabase {
  return {
    close: () => sqlite.close(),
    prepare(text: string): SqliteStatement {
      if (ROLLBACK.test(text)) return rollbackUnlessGone(sqlite, afterWrite);
      const statement = sqlite.prepare(text);
      // better-sqlite3's statement is what Kysely's SqliteStatement describes, typed by another package.
      if (READ_ONLY.test(text)) return statement as unknown as SqliteStatement;
      // Told even when the statement fails: a failed commit may still have changed the state.
      const watched = <T>(run: () => T): T => {
        try {
          return run();
        } finally {
          afterWrite();
        }
      };
      return {
        reader: statement.reader,
        all: (parameters) => watched(() => statement.all(parameters)),
        run: (parameters) => watched(() => statement.run(parameters)),
        *iterate(parameters) {
          try {
            yield* statement.iterate(parameters);
          } finally {
            afterWrite();
          }
        },
      };
    },
  };
}

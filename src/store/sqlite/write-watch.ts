import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Statements that only read: everything else (insert, update, delete, commit, pragma…) may change data. */
const READ_ONLY = /^\s*select\b/i;

/**
 * The SQLite handle as the query builder sees it, calling `afterWrite` once every statement that
 * may have changed data has run (a `commit` included). What caches committed data in this
 * process learns from it that its copy may be out of date, whichever repository did the write.
 */
export function watchWrites(sqlite: SQLite.Database, afterWrite: () => void): SqliteDatabase {
  return {
    close: () => sqlite.close(),
    prepare(text: string): SqliteStatement {
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

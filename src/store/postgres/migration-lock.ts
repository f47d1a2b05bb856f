import { Kysely, PostgresAdapter, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from '../database.js';

/** Kysely's own number for its migration lock: processes of older versions take the same. */
const MIGRATION_LOCK = BigInt('3853314791062309107');

/**
 * The migrator's lock held by a transaction rather than a session. Kysely takes a session
 * advisory lock on its connection and then opens its transaction; behind PgBouncer's transaction
 * mode the two may land on different server connections, and the lock outlives the start on
 * whichever took it. Here the transaction is opened first and the lock taken in it; the
 * migrator's own `begin` inside it is a no-op (PostgreSQL only warns), its `commit` ends both and
 * frees the lock, and a failure rolls both back.
 */
class TransactionLockAdapter extends PostgresAdapter {
  override async acquireMigrationLock(db: Kysely<unknown>): Promise<void> {
    await sql`begin`.execute(db);
    await sql`select pg_advisory_xact_lock(${sql.lit(MIGRATION_LOCK)})`.execute(db);
  }
  override async releaseMigrationLock(db: Kysely<unknown>): Promise<void> {
    // After the migrator's commit there is nothing left to end; after a failure before its
    // transaction, this ends ours, so the connection goes back to the pool clean.
    await sql`rollback`.execute(db);
  }
}

class MigrationDialect extends PostgresDialect {
  override createAdapter() {
    return new TransactionLockAdapter();
  }
}

/**
 * A query builder for the migrator alone, with the lock above, on a connection of its own without
 * the service's statement limit (an upgrade may move a whole table in one statement); destroy it
 * once the migrations are done.
 */
export function migrationDb(databaseUrl: string): Kysely<Database> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1, options: '-c TimeZone=UTC -c statement_timeout=0' });
  pool.on('error', () => {});
  return new Kysely<Database>({ dialect: new MigrationDialect({ pool }) });
}

import { type Kysely, type Migration, sql } from 'kysely';
import type { StoreKind } from '../dialect.js';

/**
 * PostgreSQL: background work that one instance does for all (retention, backups, webhook
 * delivery, the rollup of history buckets) takes a lease, a row here, instead of a session
 * advisory lock, which PgBouncer's transaction mode cannot keep. A lease runs out unless renewed,
 * so the work of an instance that died is taken up by another once it has.
 */
export function leasesMigration(kind: StoreKind): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (kind !== 'postgres') return;
      await sql`create table leases (
        name text primary key,
        holder text not null,
        expires_at timestamptz not null
      )`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      if (kind === 'postgres') await sql`drop table leases`.execute(db);
    },
  };
}

import { type Kysely, type Migration, sql } from 'kysely';
import type { StoreKind } from '../dialect.js';

/**
 * PostgreSQL: ingest writes only the 5-minute buckets and notes here each (sensor, hour) it
 * touched; a background pass folds the noted hours into their hourly and daily buckets and takes
 * the notes away in the same transaction. Until then, reads fold the noted hours from their
 * 5-minute buckets (docs/operations.md, "History and retention"). SQLite still writes every size
 * in its group commit and has no use for it.
 */
export function historyPendingMigration(kind: StoreKind): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (kind !== 'postgres') return;
      await sql`create table history_pending (
        sensor_id integer not null,
        hour_ms bigint not null,
        constraint history_pending_key primary key (sensor_id, hour_ms)
      )`.execute(db);
      // Bucket rows are rewritten in place many times an hour: room on their page lets PostgreSQL
      // keep each new version beside the old one (a HOT update: no index entry, little WAL).
      await sql`alter table history_buckets set (fillfactor = 70)`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      if (kind === 'postgres') await sql`drop table history_pending`.execute(db);
    },
  };
}

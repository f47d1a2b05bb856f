import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Every bucket row carries the stamp of the write that last changed it (a random number drawn
 * per commit, see `newBucketStamp`). A reader that kept a day's finer buckets knows they are
 * still what is stored while the day's own bucket has the same stamp: whichever process or
 * program wrote, the day's bucket is rewritten in the same transaction as any bucket inside it.
 * Rows written before this column read 0, which no write draws.
 */
export function bucketStampsMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('history_buckets')
        .addColumn('stamp', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await sql`alter table history_buckets drop column stamp`.execute(db);
    },
  };
}

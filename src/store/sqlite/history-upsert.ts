import type SQLite from 'better-sqlite3';
import { commitBuckets } from '../../domain/bucket-commit.js';
import { KEPT_SIZES } from '../../domain/bucket-sizes.js';
import type { StoredMeasurement } from '../database.js';
import { MERGE_ON_CONFLICT, newBucketStamp, STAMPED_BUCKET_COLUMNS } from '../history-sql.js';

/**
 * Ingest's share of the history: the rows of one commit summarized in memory per (sensor, size,
 * bucket) (see commitBuckets: each row added to its 5-minute bucket only, the hour and the day
 * merged from those), then one upsert per bucket touched, merged into what is stored — a commit
 * of a hundred readings of one sensor costs three statements, not three hundred. Every bucket
 * written gets the commit's stamp, so a day's stamp changes with every write to it.
 */
export function sqliteHistoryUpsert(sqlite: SQLite.Database) {
  const upsert = sqlite.prepare(
    `insert into history_buckets as b (${STAMPED_BUCKET_COLUMNS.join(', ')}) values (${STAMPED_BUCKET_COLUMNS.map(() => '?').join(', ')}) ${MERGE_ON_CONFLICT}`,
  );
  return function addToHistory(rows: readonly StoredMeasurement[]): void {
    const stamp = newBucketStamp();
    for (const { sensorId, size, bucket: b } of commitBuckets(rows, KEPT_SIZES)) {
      upsert.run(
        sensorId,
        size,
        b.start,
        b.count,
        b.sum,
        b.min.value,
        b.min.ts,
        b.min.id,
        b.max.value,
        b.max.ts,
        b.max.id,
        b.first.value,
        b.first.ts,
        b.first.id,
        b.last.value,
        b.last.ts,
        b.last.id,
        stamp,
      );
    }
  };
}

import type SQLite from 'better-sqlite3';
import { type Bucket } from '../../history/fold.js';
import { bucketStart, KEPT_SIZES } from '../../history/sizes.js';
import { add, summaryOf } from '../../history/summary.js';
import type { StoredMeasurement } from '../database.js';
import { BUCKET_COLUMNS, MERGE_ON_CONFLICT } from '../history-sql.js';

/**
 * Ingest's share of the history: the rows of one commit summarized in memory per (sensor, size,
 * bucket), then one upsert per bucket touched, merged into what is stored — a commit of a
 * hundred readings of one sensor costs three statements, not three hundred.
 */
export function sqliteHistoryUpsert(sqlite: SQLite.Database) {
  const upsert = sqlite.prepare(
    `insert into history_buckets as b (${BUCKET_COLUMNS.join(', ')}) values (${BUCKET_COLUMNS.map(() => '?').join(', ')}) ${MERGE_ON_CONFLICT}`,
  );
  return function addToHistory(rows: readonly StoredMeasurement[]): void {
    const touched = new Map<string, { sensorId: number; size: number; bucket: Bucket }>();
    for (const row of rows) {
      for (const size of KEPT_SIZES) {
        const start = bucketStart(row.timestamp, size);
        const key = `${row.sensor_id}:${size}:${start}`;
        const entry = touched.get(key);
        if (entry) add(entry.bucket, row);
        else touched.set(key, { sensorId: row.sensor_id, size, bucket: { start, ...summaryOf(row) } });
      }
    }
    for (const { sensorId, size, bucket: b } of touched.values()) {
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
      );
    }
  };
}

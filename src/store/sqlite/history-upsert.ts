import type SQLite from 'better-sqlite3';
import type { Bucket } from '../../history/fold.js';
import { bucketStart, KEPT_SIZES } from '../../history/sizes.js';
import { addPoint, type Point, pointOf, summaryOfPoint } from '../../history/summary.js';
import type { StoredMeasurement } from '../database.js';
import { MERGE_ON_CONFLICT, newBucketStamp, STAMPED_BUCKET_COLUMNS } from '../history-sql.js';

interface Touched {
  sensorId: number;
  size: number;
  bucket: Bucket;
}

/** One sensor's buckets in a commit: per size, the one its previous row fell in, and all of them by start. */
interface SensorBuckets {
  current: Touched[];
  byStart: Map<number, Touched>[];
}

/**
 * Ingest's share of the history: the rows of one commit summarized in memory per (sensor, size,
 * bucket), then one upsert per bucket touched, merged into what is stored — a commit of a
 * hundred readings of one sensor costs three statements, not three hundred.
 *
 * This runs for every row ingested, so the summarizing loop allocates one point per row (shared
 * by the three sizes) and finds buckets by numbers, not key strings: one lookup of the sensor,
 * whose rows nearly always fall in the buckets its previous row did.
 */
export function sqliteHistoryUpsert(sqlite: SQLite.Database) {
  const upsert = sqlite.prepare(
    `insert into history_buckets as b (${STAMPED_BUCKET_COLUMNS.join(', ')}) values (${STAMPED_BUCKET_COLUMNS.map(() => '?').join(', ')}) ${MERGE_ON_CONFLICT}`,
  );
  const sizes = KEPT_SIZES.length;
  return function addToHistory(rows: readonly StoredMeasurement[]): void {
    const touched: Touched[] = [];
    const sensors = new Map<number, SensorBuckets>();
    const open = (sensorId: number, s: number, start: number, point: Point): Touched => {
      const entry = { sensorId, size: KEPT_SIZES[s], bucket: { start, ...summaryOfPoint(point) } };
      touched.push(entry);
      return entry;
    };
    for (const row of rows) {
      const point = pointOf(row);
      const sensorId = row.sensor_id;
      const known = sensors.get(sensorId);
      if (known === undefined) {
        const current = KEPT_SIZES.map((size, s) => open(sensorId, s, bucketStart(row.timestamp, size), point));
        sensors.set(sensorId, { current, byStart: current.map((entry) => new Map([[entry.bucket.start, entry]])) });
        continue;
      }
      for (let s = 0; s < sizes; s++) {
        const start = bucketStart(row.timestamp, KEPT_SIZES[s]);
        let entry = known.current[s];
        if (entry.bucket.start !== start) {
          const other = known.byStart[s].get(start);
          if (other === undefined) {
            known.byStart[s].set(start, (known.current[s] = open(sensorId, s, start, point)));
            continue;
          }
          entry = known.current[s] = other;
        }
        addPoint(entry.bucket, point);
      }
    }
    const stamp = newBucketStamp();
    for (const { sensorId, size, bucket: b } of touched) {
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

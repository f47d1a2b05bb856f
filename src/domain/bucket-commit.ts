import type { Bucket } from './bucket-fold.js';
import { bucketStart } from './bucket-sizes.js';
import { addPoint, mergeInto, type Point, summaryOfPoint } from './bucket-summary.js';

/** One bucket a commit touched: its sensor and size, and the summary of the commit's rows in it. */
export interface TouchedBucket {
  sensorId: number;
  size: number;
  bucket: Bucket;
}

/** A row as a commit's fold reads it. */
export interface CommittedRow {
  measurement_id: number;
  sensor_id: number;
  value: number;
  timestamp: number;
}

/**
 * The rows of one commit summarized per (sensor, size, bucket), for `sizes` finest first, each a
 * multiple of the one before (the kept sizes). Each row is added to its finest bucket only; a
 * coarser bucket is then merged from the finer buckets it holds, which is exact because a summary
 * does not depend on how its rows are grouped (src/domain/bucket-summary.ts). A hundred readings
 * in a few minutes cost a hundred additions and a few merges, not one addition per row and size.
 *
 * One point per row; a sensor's rows nearly always fall in the bucket its previous row did, so
 * that is tried before its map of buckets. Buckets come out per sensor (in the order the sensors
 * first appear), finest size first, each size in the order its buckets were first touched.
 */
export function commitBuckets(rows: readonly CommittedRow[], sizes: readonly number[]): TouchedBucket[] {
  const finest = sizes[0];
  const sensors = new Map<number, { current: Bucket; byStart: Map<number, Bucket> }>();
  for (const row of rows) {
    const point: Point = { id: row.measurement_id, ts: row.timestamp, value: row.value };
    const start = bucketStart(row.timestamp, finest);
    const known = sensors.get(row.sensor_id);
    if (known === undefined) {
      const bucket = { start, ...summaryOfPoint(point) };
      sensors.set(row.sensor_id, { current: bucket, byStart: new Map([[start, bucket]]) });
    } else if (known.current.start === start) {
      addPoint(known.current, point);
    } else {
      const other = known.byStart.get(start);
      if (other === undefined) known.byStart.set(start, (known.current = { start, ...summaryOfPoint(point) }));
      else addPoint((known.current = other), point);
    }
  }
  const touched: TouchedBucket[] = [];
  for (const [sensorId, { byStart }] of sensors) {
    let finer = [...byStart.values()];
    for (const b of finer) touched.push({ sensorId, size: finest, bucket: b });
    for (let s = 1; s < sizes.length; s++) {
      const size = sizes[s];
      const coarser = new Map<number, Bucket>();
      for (const b of finer) {
        const start = bucketStart(b.start, size);
        const into = coarser.get(start);
        // A copy: the finer bucket is written as it is, the coarser one grows.
        if (into === undefined) coarser.set(start, { ...b, start });
        else mergeInto(into, b);
      }
      finer = [...coarser.values()];
      for (const b of finer) touched.push({ sensorId, size, bucket: b });
    }
  }
  return touched;
}

import { type Kysely, sql } from 'kysely';
import { bucketStart, DAY, FIVE_MINUTES, HOUR } from '../../domain/bucket-sizes.js';
import type { Database } from '../database.js';
import { BUCKET_COLUMNS, floorTo, newBucketStamp, pointsOfBuckets } from '../history-sql.js';
import { withRetry } from './retry.js';

/** Noted hours folded per transaction: each is a short one, so ingest noting the same hour waits little. */
const HOURS_PER_TRANSACTION = 2_000;

const COLUMNS = sql.raw([...BUCKET_COLUMNS, 'stamp'].join(', '));
const POINTS = sql.raw(pointsOfBuckets());

/**
 * Folds bucket rows of `finer` into rows of `size` for the (sensor, start) keys given, replacing
 * what was stored under those keys (a key whose finer rows are all gone loses its row).
 */
async function refold(trx: Kysely<Database>, sensorIds: number[], starts: number[], size: number, finer: number, stamp: number) {
  const keys = sql`unnest(${sensorIds}::int[], ${starts}::int8[]) as k(sensor_id, start_ms)`;
  await sql`delete from history_buckets b using ${keys}
    where b.sensor_id = any(${sensorIds}::int[]) and b.sensor_id = k.sensor_id and b.size_ms = ${size}::int8 and b.start_ms = k.start_ms`.execute(
    trx,
  );
  await sql`insert into history_buckets (${COLUMNS})
    select f.sensor_id, ${size}::int8, ${sql.raw(floorTo('f.start_ms', size))} as start, sum(f.row_count), sum(f.value_sum), ${POINTS}, ${stamp}::int8
    from history_buckets f
    where f.sensor_id = any(${sensorIds}::int[]) and f.size_ms = ${finer}::int8
      and (f.sensor_id, ${sql.raw(floorTo('f.start_ms', size))}) in (select * from ${keys})
    group by f.sensor_id, start order by start, f.sensor_id`.execute(trx);
}

/**
 * One transaction of the rollup: takes up to HOURS_PER_TRANSACTION noted hours of these sensors
 * (those another instance's pass is folding are skipped), folds each from its 5-minute buckets and
 * each day holding one from its hours, and takes the notes away, all committed together. A row
 * ingested meanwhile into a taken hour notes it again (its insert waits for this transaction), so
 * the next pass folds it. Answers how many hours it folded.
 */
export async function rollUpOnce(db: Kysely<Database>, sensorIds: readonly number[]): Promise<number> {
  if (sensorIds.length === 0) return 0;
  // The sensors of the hours to fold, found first without a lock.
  const { rows: waiting } = await sql<{ sensor_id: number }>`select distinct sensor_id from (select sensor_id from history_pending
      where sensor_id = any(${[...sensorIds]}::int[]) order by hour_ms, sensor_id limit ${HOURS_PER_TRANSACTION}) t`.execute(db);
  if (waiting.length === 0) return 0;
  const sensors = waiting.map((r) => r.sensor_id).sort((a, b) => a - b);
  return withRetry(() =>
    db.transaction().execute(async (trx) => {
      // Those sensors kept from deletion first (in id order, as ingest and deletes take them): a
      // delete that holds one waits for this fold, or this waits for it, instead of each holding
      // what the other needs (the buckets written here refer to the sensor).
      const { rows: kept } = await sql<{ sensor_id: number }>`select sensor_id from sensors where sensor_id = any(${sensors}::int[])
      order by sensor_id for key share`.execute(trx);
      const alive = kept.map((r) => r.sensor_id);
      const { rows } = await sql<{ sensor_id: number; hour_ms: string }>`delete from history_pending p
      using (select sensor_id, hour_ms from history_pending where sensor_id = any(${alive}::int[])
        order by hour_ms, sensor_id limit ${HOURS_PER_TRANSACTION} for update skip locked) t
      where p.sensor_id = any(${alive}::int[]) and p.sensor_id = t.sensor_id and p.hour_ms = t.hour_ms
      returning p.sensor_id, p.hour_ms`.execute(trx);
      if (rows.length === 0) return 0;
      const stamp = newBucketStamp();
      await refold(
        trx,
        rows.map((r) => r.sensor_id),
        rows.map((r) => Number(r.hour_ms)),
        HOUR,
        FIVE_MINUTES,
        stamp,
      );
      const days = new Map<string, [number, number]>();
      for (const r of rows) {
        const day = bucketStart(Number(r.hour_ms), DAY);
        days.set(`${r.sensor_id}:${day}`, [r.sensor_id, day]);
      }
      const dayKeys = [...days.values()];
      await refold(
        trx,
        dayKeys.map((k) => k[0]),
        dayKeys.map((k) => k[1]),
        DAY,
        HOUR,
        stamp,
      );
      return rows.length;
    }),
  );
}

import { type Insertable, type Kysely, sql } from 'kysely';
import { type Bucket, bucketsOf, bucketStream, foldBuckets } from '../../domain/bucket-fold.js';
import { bucketStart, DAY, FIVE_MINUTES, HOUR, KEPT_SIZES } from '../../domain/bucket-sizes.js';
import type { Database, HistoryBucketTable } from '../database.js';
import type { Dialect } from '../dialect.js';
import type { BucketRead, BucketRow } from '../../domain/bucket-rows.js';
import { BUCKET_READS, bucketOf, bucketRow, newBucketStamp } from '../history-sql.js';
import { measurementRepository } from './measurements.js';

/** Raw rows before this instant (a UTC midnight, epoch ms) have been retired; their buckets are the record. */
const RETIRED_BEFORE_KEY = 'history.raw_retired_before';
/** Bucket rows per insert: SQLite binds at most 32766 values, 17 per row here. */
const ROWS_PER_INSERT = 1_000;

export interface RemovedMeasurement {
  sensor_id: number;
  timestamp: number;
}

export interface RebuildProgress {
  rows: number;
  buckets: number;
}

/**
 * The history buckets of every sensor (5 minutes, 1 hour, 1 day): reading them, and keeping them
 * exact when raw rows go away. Ingest adds to them in its own commit (see the group commits);
 * everything here runs inside the caller's transaction when given a transaction's `db`.
 * `stamped: false` writes buckets without stamps, for the migration that builds buckets before
 * the stamp column exists.
 */
export function historyRepository(db: Kysely<Database>, dialect: Dialect, { stamped = true } = {}) {
  const measurements = measurementRepository(db, dialect);
  const stampOfWrite = () => (stamped ? newBucketStamp() : undefined);

  async function insertBuckets(rows: Insertable<HistoryBucketTable>[]): Promise<void> {
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
      await db
        .insertInto('history_buckets')
        .values(rows.slice(i, i + ROWS_PER_INSERT))
        .execute();
    }
  }

  /** A sensor's buckets of `size` starting in [from, to), in time order, before the columns are chosen. */
  const inRange = (sensorId: number, size: number, from: number, to: number) =>
    db
      .selectFrom('history_buckets')
      .where('sensor_id', '=', sensorId)
      .where('size_ms', '=', size)
      .where('start_ms', '>=', from)
      .where('start_ms', '<', to)
      .orderBy('start_ms');

  async function buckets(sensorId: number, size: number, from: number, to: number): Promise<Bucket[]> {
    return (await inRange(sensorId, size, from, to).selectAll().execute()).map(bucketOf);
  }

  async function write(
    sensorId: number,
    size: number,
    start: number,
    bucket: Bucket | undefined,
    stamp: number | undefined,
  ): Promise<void> {
    await db
      .deleteFrom('history_buckets')
      .where('sensor_id', '=', sensorId)
      .where('size_ms', '=', size)
      .where('start_ms', '=', start)
      .execute();
    if (bucket) await insertBuckets([bucketRow(sensorId, size, bucket, stamp)]);
  }

  async function retiredBefore(): Promise<number> {
    const row = await db.selectFrom('settings').select('value').where('key', '=', RETIRED_BEFORE_KEY).executeTakeFirst();
    return row ? Number(row.value) : -Infinity;
  }

  /**
   * On PostgreSQL, locks the bucket rows about to be recomputed, in the order ingest's upserts
   * take them: an ingest that committed first is then seen by the recomputation's reads, and one
   * that comes later waits and adds itself to the recomputed bucket.
   */
  async function lockBuckets(keys: { sensorId: number; size: number; start: number }[]): Promise<void> {
    if (dialect.kind !== 'postgres' || keys.length === 0) return;
    const tuples = keys.map((k) => sql`(${k.sensorId}::int, ${k.size}::int8, ${k.start}::int8)`);
    const sensorIds = [...new Set(keys.map((k) => k.sensorId))];
    await sql`select 1 from history_buckets where sensor_id = any(${sensorIds}::int[]) and (sensor_id, size_ms, start_ms) in (${sql.join(tuples)})
      order by size_ms, start_ms, sensor_id for update`.execute(db);
  }

  /** PostgreSQL: notes hours for the rollup, which folds their hourly and daily buckets (migration 071). */
  async function notePending(keys: { sensorId: number; start: number }[]): Promise<void> {
    if (keys.length === 0) return;
    const sorted = [...keys].sort((a, b) => a.start - b.start || a.sensorId - b.sensorId);
    await sql`insert into history_pending (sensor_id, hour_ms)
      select * from unnest(${sorted.map((k) => k.sensorId)}::int[], ${sorted.map((k) => k.start)}::int8[]) on conflict do nothing`.execute(
      db,
    );
  }

  return {
    /** The kept buckets of `size` whose start lies in [from, to), in time order. */
    buckets,

    /**
     * The same as arrays of numbers (BucketRow, the columns of `read`), the shape long reads take;
     * the stores answer it from prepared statements without an object per row (see
     * sqlite/reader.ts, postgres/hot-paths.ts).
     */
    async bucketRows(read: BucketRead, sensorId: number, size: number, from: number, to: number): Promise<BucketRow[]> {
      const columns = BUCKET_READS[read];
      const rows = await inRange(sensorId, size, from, to).select(columns).execute();
      return rows.map((r) => columns.map((c) => Number(r[c])));
    },

    /** The stamps of a sensor's daily buckets starting in [from, to), as [start, stamp] pairs in time order. */
    async dayStamps(sensorId: number, from: number, to: number): Promise<[number, number][]> {
      const rows = await inRange(sensorId, DAY, from, to).select(['start_ms', 'stamp']).execute();
      return rows.map((r) => [Number(r.start_ms), Number(r.stamp)]);
    },

    /** The span the sensor's history covers, from its first measurement to just after its last; undefined without history. */
    async extent(sensorId: number): Promise<{ first: number; end: number } | undefined> {
      if (dialect.kind === 'postgres') {
        // The days the rollup has not reached yet are in their noted hours' 5-minute buckets.
        const { rows } = await sql<{ first: string | null; last: string | null }>`select min(f) as first, max(l) as last from (
            select first_ts as f, last_ts as l from history_buckets where sensor_id = ${sensorId} and size_ms = ${DAY}
            union all
            select b.first_ts, b.last_ts from history_pending p join history_buckets b
              on b.sensor_id = ${sensorId} and b.size_ms = ${FIVE_MINUTES} and b.start_ms >= p.hour_ms and b.start_ms < p.hour_ms + ${HOUR}
            where p.sensor_id = ${sensorId}) x`.execute(db);
        const row = rows[0];
        if (!row || row.first === null || row.last === null) return undefined;
        return { first: Number(row.first), end: Number(row.last) + 1 };
      }
      const row = await db
        .selectFrom('history_buckets')
        .select((eb) => [eb.fn.min('first_ts').as('first'), eb.fn.max('last_ts').as('last')])
        .where('sensor_id', '=', sensorId)
        .where('size_ms', '=', DAY)
        .executeTakeFirst();
      if (!row || row.first === null || row.last === null) return undefined;
      return { first: Number(row.first), end: Number(row.last) + 1 };
    },

    /** Before this instant raw rows are retired (−∞: none ever were). */
    retiredBefore,

    /** Moves the retirement cutoff on (never back). */
    async retireBefore(cutoff: number): Promise<void> {
      if (cutoff <= (await retiredBefore())) return;
      await db
        .insertInto('settings')
        .values({ key: RETIRED_BEFORE_KEY, value: String(cutoff) })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: String(cutoff) }))
        .execute();
    },

    /**
     * Raw rows went away (deleted one by one): the buckets that held them are computed again —
     * the 5-minute bucket from the raw rows that remain, the hour from its 5-minute buckets, the
     * day from its hours. Buckets before the retirement cutoff are the permanent record and stay.
     */
    async measurementsRemoved(removed: readonly RemovedMeasurement[]): Promise<void> {
      const cutoff = await retiredBefore();
      const keysBySize = new Map<number, Map<string, { sensorId: number; size: number; start: number }>>(
        KEPT_SIZES.map((s) => [s, new Map()]),
      );
      for (const row of removed) {
        if (row.timestamp < cutoff) continue;
        for (const size of KEPT_SIZES) {
          const start = bucketStart(row.timestamp, size);
          keysBySize.get(size)?.set(`${row.sensor_id}:${start}`, { sensorId: row.sensor_id, size, start });
        }
      }
      // On PostgreSQL only the 5-minute buckets are written here, as ingest writes them; the hours
      // are noted for the rollup, and reads fold them until it has come by.
      const pending = dialect.kind === 'postgres';
      const all = [...keysBySize.values()].flatMap((m) => [...m.values()]).filter((k) => !pending || k.size === FIVE_MINUTES);
      all.sort((a, b) => a.size - b.size || a.start - b.start || a.sensorId - b.sensorId);
      await lockBuckets(all);
      const stamp = stampOfWrite();
      for (const { sensorId, start } of keysBySize.get(FIVE_MINUTES)?.values() ?? []) {
        const rows = [];
        for await (const page of measurements.walkWindow(sensorId, { start, end: start + FIVE_MINUTES, endInclusive: false }))
          rows.push(...page);
        await write(sensorId, FIVE_MINUTES, start, bucketsOf(rows, FIVE_MINUTES)[0], stamp);
      }
      if (pending) {
        await notePending([...(keysBySize.get(HOUR)?.values() ?? [])]);
        return;
      }
      for (const [size, finer] of [
        [HOUR, FIVE_MINUTES],
        [DAY, HOUR],
      ] as const) {
        for (const { sensorId, start } of keysBySize.get(size)?.values() ?? []) {
          await write(sensorId, size, start, foldBuckets(await buckets(sensorId, finer, start, start + size), size)[0], stamp);
        }
      }
    },

    /** Every bucket of these sensors (the sensors are being deleted). */
    async sensorsRemoved(sensorIds: readonly number[]): Promise<void> {
      if (sensorIds.length === 0) return;
      await db
        .deleteFrom('history_buckets')
        .where('sensor_id', 'in', [...sensorIds])
        .execute();
      if (dialect.kind === 'postgres') await sql`delete from history_pending where sensor_id = any(${[...sensorIds]}::int[])`.execute(db);
    },

    /**
     * Every bucket (every measurement is being replaced): history starts afresh, retirement
     * cutoff included, so the new rows get their buckets whatever their age (retention retires
     * the old ones again at its next pass, keeping their buckets).
     */
    async removeAll(): Promise<void> {
      if (dialect.kind === 'postgres') await sql`truncate history_buckets, history_pending`.execute(db);
      else await db.deleteFrom('history_buckets').execute();
      await db.deleteFrom('settings').where('key', '=', RETIRED_BEFORE_KEY).execute();
    },

    /**
     * Builds a sensor's buckets in [from, to) (whole days; undefined: unbounded) from its raw
     * rows, replacing what was there, walking the rows in time order with flat memory.
     * Buckets before the retirement cutoff are left as they are.
     */
    async rebuild(
      sensorId: number,
      from: number | undefined,
      to: number | undefined,
      progress?: (p: RebuildProgress) => void,
    ): Promise<RebuildProgress> {
      const cutoff = await retiredBefore();
      const start = Number.isFinite(cutoff) ? Math.max(from ?? -Infinity, cutoff) : from;
      let del = db.deleteFrom('history_buckets').where('sensor_id', '=', sensorId);
      if (start !== undefined) del = del.where('start_ms', '>=', start);
      if (to !== undefined) del = del.where('start_ms', '<', to);
      await del.execute();
      const pending: Insertable<HistoryBucketTable>[] = [];
      const done: RebuildProgress = { rows: 0, buckets: 0 };
      const stamp = stampOfWrite();
      const stream = bucketStream(KEPT_SIZES, (size, bucket) => pending.push(bucketRow(sensorId, size, bucket, stamp)));
      for await (const page of measurements.walkWindow(sensorId, { start, end: to, endInclusive: false })) {
        for (const row of page) stream.push(row);
        done.rows += page.length;
        if (pending.length >= ROWS_PER_INSERT) {
          done.buckets += pending.length;
          await insertBuckets(pending.splice(0));
          progress?.(done);
        }
      }
      stream.end();
      done.buckets += pending.length;
      await insertBuckets(pending.splice(0));
      return done;
    },

    /** Deletes up to `limit` of a sensor's raw rows older than `cutoff`; how many it deleted. */
    async retireRaw(sensorId: number, cutoff: number, limit: number): Promise<number> {
      const oldest = db
        .selectFrom('measurements')
        .select('measurement_id')
        .where('sensor_id', '=', sensorId)
        .where('timestamp', '<', dialect.at(cutoff))
        .orderBy('timestamp')
        .limit(limit);
      const result = await db.deleteFrom('measurements').where('measurement_id', 'in', oldest).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** Deletes up to `limit` of a sensor's 5-minute buckets older than `cutoff`; how many it deleted. */
    async retireFiveMinute(sensorId: number, cutoff: number, limit: number): Promise<number> {
      const oldest = db
        .selectFrom('history_buckets')
        .select('start_ms')
        .where('sensor_id', '=', sensorId)
        .where('size_ms', '=', FIVE_MINUTES)
        .where('start_ms', '<', cutoff)
        .orderBy('start_ms')
        .limit(limit);
      const result = await db
        .deleteFrom('history_buckets')
        .where('sensor_id', '=', sensorId)
        .where('size_ms', '=', FIVE_MINUTES)
        .where('start_ms', 'in', oldest)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type HistoryRepository = ReturnType<typeof historyRepository>;

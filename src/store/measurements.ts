import { type Kysely, sql } from 'kysely';
import type { BucketLayout } from '../domain/downsample.js';
import { restAfter, type TimeWindow } from '../domain/time-window.js';
import type { Database } from './database.js';
import type { Dialect } from './dialect.js';

/** A measurement as the service handles it: the timestamp in epoch milliseconds. */
export interface StoredMeasurement {
  measurement_id: number;
  sensor_id: number;
  value: number;
  timestamp: number;
}

export interface NewMeasurement {
  sensor_id: number;
  value: number;
  timestamp: number;
}

/** Rows per statement: SQLite binds at most 32766 values per statement, three per row here. */
const ROWS_PER_INSERT = 5_000;
/** Rows per array-parameter insert on PostgreSQL (two arrays of this many numbers per statement). */
const ROWS_PER_ARRAY_INSERT = 50_000;
/** Rows per downsampling query: long enough to be efficient, short enough not to hold others up. */
const ROWS_PER_SLICE = 100_000;
/** Rows per read when walking a long series: bounded memory, and other queries run in between. */
export const ROWS_PER_PAGE = 5_000;

export function measurementRepository(db: Kysely<Database>, dialect: Dialect) {
  function inWindow(sensorId: number, window: TimeWindow) {
    let query = db.selectFrom('measurements').where('sensor_id', '=', sensorId);
    if (window.start !== undefined) query = query.where('timestamp', '>=', dialect.at(window.start));
    if (window.end !== undefined) query = query.where('timestamp', window.endInclusive ? '<=' : '<', dialect.at(window.end));
    return query;
  }

  return {
    /** Inserts the rows in order and returns them with their ids, in the same order. */
    async insertMany(rows: readonly NewMeasurement[]): Promise<StoredMeasurement[]> {
      const out: StoredMeasurement[] = [];
      for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
        const chunk = rows.slice(i, i + ROWS_PER_INSERT);
        const inserted = await db
          .insertInto('measurements')
          .values(chunk.map((r) => ({ sensor_id: r.sensor_id, value: r.value, timestamp: dialect.time(r.timestamp) })))
          .returning(['measurement_id', 'sensor_id', 'value', 'timestamp'])
          .execute();
        // Ids are assigned in row order within one statement; sorting restores that order.
        out.push(...inserted.sort((a, b) => a.measurement_id - b.measurement_id));
      }
      return out;
    },

    /** Inserts a generated series of one sensor (no ids returned: used for bulk generation). */
    async insertSeries(sensorId: number, timestamps: Float64Array, values: Float64Array): Promise<void> {
      if (dialect.kind === 'postgres') {
        // Two array parameters per statement instead of three values per row: PostgreSQL parses
        // one large array far faster than thousands of placeholders (1,000,000 rows: 13 s → a few).
        // Milliseconds → timestamptz by interval arithmetic, exact (a double division is not).
        for (let i = 0; i < timestamps.length; i += ROWS_PER_ARRAY_INSERT) {
          const end = Math.min(timestamps.length, i + ROWS_PER_ARRAY_INSERT);
          await sql`insert into measurements (sensor_id, value, timestamp)
            select ${sensorId}, u.value, timestamptz 'epoch' + u.ms * interval '1 millisecond'
            from unnest(${Array.from(values.subarray(i, end))}::float8[], ${Array.from(timestamps.subarray(i, end))}::int8[]) as u(value, ms)`.execute(db);
        }
        return;
      }
      for (let i = 0; i < timestamps.length; i += ROWS_PER_INSERT) {
        const end = Math.min(timestamps.length, i + ROWS_PER_INSERT);
        const rows = [];
        for (let k = i; k < end; k++) rows.push({ sensor_id: sensorId, value: values[k], timestamp: dialect.time(timestamps[k]) });
        await db.insertInto('measurements').values(rows).execute();
      }
    },

    async deleteAll(): Promise<number> {
      const result = await db.deleteFrom('measurements').executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** The newest measurement of a sensor by timestamp (ties: the highest id). */
    last(sensorId: number): Promise<StoredMeasurement | undefined> {
      return db
        .selectFrom('measurements')
        .select(['measurement_id', 'sensor_id', 'value', 'timestamp'])
        .where('sensor_id', '=', sensorId)
        .orderBy('timestamp', 'desc')
        .orderBy('measurement_id', 'desc')
        .limit(1)
        .executeTakeFirst();
    },

    /** How many measurements the window holds, and the first and last timestamps. */
    async windowSpan(sensorId: number, window: TimeWindow): Promise<{ count: number; first: number; last: number }> {
      const row = await inWindow(sensorId, window)
        .select((eb) => [eb.fn.countAll().as('count'), eb.fn.min('timestamp').as('first'), eb.fn.max('timestamp').as('last')])
        .executeTakeFirstOrThrow();
      return { count: Number(row.count), first: Number(row.first), last: Number(row.last) };
    },

    /**
     * Downsampling inside the store: each bucket of `layout` keeps its lowest and its highest
     * measurement, in time order, so peaks and troughs survive and only those rows leave the
     * database (the streaming `minMaxBuckets` in domain/downsample.ts does the same in code). The
     * window is read in slices of about ROWS_PER_SLICE rows (`rows` is how many it holds), with a
     * pause between them for other requests.
     *
     * On a tie PostgreSQL keeps the earliest row; SQLite keeps one of the tied rows (its bare
     * columns of min()/max(): one pass and no sort, three times faster than ranking the rows).
     */
    async extremesPerBucket(sensorId: number, window: TimeWindow, layout: BucketLayout, rows: number): Promise<StoredMeasurement[]> {
      const { first, count, span } = layout;
      const out: StoredMeasurement[] = [];
      for (const slice of layout.slices(rows, ROWS_PER_SLICE)) {
        const inSlice = inWindow(sensorId, window)
          .where('timestamp', '>=', dialect.at(slice.start))
          .where('timestamp', '<', dialect.at(slice.end));
        let kept: StoredMeasurement[];
        if (dialect.kind === 'postgres') {
          // Integer arithmetic on epoch ms: the floor division picks the same bucket as BucketLayout.of.
          const bucket = sql<number>`((extract(epoch from timestamp) * 1000)::int8 - ${first}::int8) * ${count}::int8 / ${span}::int8`;
          const ranked = inSlice.select([
            'measurement_id',
            'sensor_id',
            'value',
            'timestamp',
            sql<number>`row_number() over (partition by ${bucket} order by value, timestamp, measurement_id)`.as('low_rank'),
            sql<number>`row_number() over (partition by ${bucket} order by value desc, timestamp, measurement_id)`.as('high_rank'),
          ]);
          kept = await db
            .selectFrom(ranked.as('r'))
            .select(['measurement_id', 'sensor_id', 'value', 'timestamp'])
            .where((eb) => eb.or([eb('low_rank', '=', 1), eb('high_rank', '=', 1)]))
            .orderBy('timestamp')
            .orderBy('measurement_id')
            .execute();
        } else {
          // Doubles, in the same order of operations as BucketLayout.of, then truncated (never negative).
          const bucket = sql<number>`cast((timestamp - ${first}) * ${count} / ${span} as integer)`;
          const extreme = (fn: 'min' | 'max') =>
            inSlice.select(['measurement_id', 'sensor_id', sql<number>`${sql.raw(fn)}(value)`.as('value'), 'timestamp']).groupBy(bucket);
          kept = await db
            .selectFrom(extreme('min').union(extreme('max')).as('e'))
            .selectAll()
            .orderBy('timestamp')
            .orderBy('measurement_id')
            .execute();
          await new Promise((resolve) => setImmediate(resolve));
        }
        out.push(...kept);
      }
      return out;
    },

    /**
     * The window's measurements in time order (ties by id), read page by page so that a long
     * series never sits in memory whole and other queries run between pages.
     */
    async *walkWindow(sensorId: number, window: TimeWindow): AsyncGenerator<StoredMeasurement[]> {
      let after: StoredMeasurement | undefined;
      for (;;) {
        let query = inWindow(sensorId, after ? restAfter(window, after.timestamp) : window).select([
          'measurement_id',
          'sensor_id',
          'value',
          // PostgreSQL: epoch ms as an integer, read back with Number(), rather than timestamptz
          // text parsed as a date per row (a third of the time of a long read).
          dialect.kind === 'postgres' ? sql<number>`(extract(epoch from "timestamp") * 1000)::int8`.as('timestamp') : 'timestamp',
        ]);
        if (after) {
          const { timestamp, measurement_id } = after;
          query = query.where((eb) =>
            eb.or([
              eb('timestamp', '>', dialect.at(timestamp)),
              eb.and([eb('timestamp', '=', dialect.at(timestamp)), eb('measurement_id', '>', measurement_id)]),
            ]),
          );
        }
        // Qualified: the output column of the same name is not the indexed one on PostgreSQL.
        const page = await query.orderBy('measurements.timestamp').orderBy('measurement_id').limit(ROWS_PER_PAGE).execute();
        if (page.length > 0) yield page;
        if (page.length < ROWS_PER_PAGE) return;
        after = page[page.length - 1];
      }
    },

    /**
     * Refreshes the planner's statistics after a bulk load. PostgreSQL: without them, a table that
     * grew from empty to millions of rows before autovacuum came by is taken to be tiny, and each
     * page of a long read sorts the whole rest of the window instead of following the index.
     */
    async analyze(): Promise<void> {
      if (dialect.kind === 'postgres') await sql`analyze measurements`.execute(db);
    },

    async count(): Promise<number> {
      const row = await db.selectFrom('measurements').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}

export type MeasurementRepository = ReturnType<typeof measurementRepository>;

import type { Kysely } from 'kysely';
import type { BucketLayout } from '../../domain/buckets.js';
import { restAfter, type TimeWindow } from '../../domain/time-window.js';
import type { Database, StoredMeasurement } from '../database.js';
import type { Dialect } from '../dialect.js';
import { reusableQuery } from '../reusable-query.js';

/** Rows per downsampling query: long enough to be efficient, short enough not to hold others up. */
const ROWS_PER_SLICE = 100_000;
/** Rows per read when walking a long series: bounded memory, and other queries run in between. */
export const ROWS_PER_PAGE = 5_000;

/** The newest measurement of a sensor: read by every alert evaluation. */
const newestOf = reusableQuery((db, _dialect, sensorId: number) =>
  db
    .selectFrom('measurements')
    .select(['measurement_id', 'sensor_id', 'value', 'timestamp'])
    .where('sensor_id', '=', sensorId)
    .orderBy('timestamp', 'desc')
    .orderBy('measurement_id', 'desc')
    .limit(1),
);

/** What a notice of committed rows names: see `readBack`. */
export interface ReadBack {
  sensorIds: readonly number[];
  from: number;
  to: number;
  ranges: readonly (readonly [number, number])[];
}

export function measurementRepository(db: Kysely<Database>, dialect: Dialect) {
  function inWindow(sensorId: number, window: TimeWindow) {
    let query = db.selectFrom('measurements').where('sensor_id', '=', sensorId);
    if (window.start !== undefined) query = query.where('timestamp', '>=', dialect.at(window.start));
    if (window.end !== undefined) query = query.where('timestamp', window.endInclusive ? '<=' : '<', dialect.at(window.end));
    return query;
  }

  /** The newest measurement of a sensor by timestamp (ties: the highest id). */
  async function last(sensorId: number): Promise<StoredMeasurement | undefined> {
    return (await newestOf(db, dialect, sensorId))[0];
  }

  return {
    /** The sensor's readings taken in [from, to], oldest first, at most `limit` (the oldest kept): what a dose is judged on. */
    async between(sensorId: number, from: number, to: number, limit: number): Promise<{ value: number; timestamp: number }[]> {
      return inWindow(sensorId, { start: from, end: to, endInclusive: true })
        .select(['value', 'timestamp'])
        .orderBy('timestamp')
        .orderBy('measurement_id')
        .limit(limit)
        .execute();
    },

    /** Inserts a generated series of one sensor (no ids returned: used for bulk generation). */
    insertSeries(sensorId: number, timestamps: Float64Array, values: Float64Array): Promise<void> {
      return dialect.insertSeries(db, sensorId, timestamps, values);
    },

    async deleteAll(): Promise<number> {
      const result = await db.deleteFrom('measurements').executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** Every measurement of these sensors (the synthetic data of one tank replacing its own). */
    async deleteOfSensors(sensorIds: readonly number[]): Promise<number> {
      if (sensorIds.length === 0) return 0;
      const result = await db
        .deleteFrom('measurements')
        .where('sensor_id', 'in', [...sensorIds])
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** The newest measurement of a sensor by timestamp (ties: the highest id). */
    last,

    /**
     * The newest reading and the run of exactly equal values at the newest end of the sensor's
     * readings (docs/api.md §14 `stuck`): how many it holds, counted up to `cap`, and when the oldest
     * of them was taken. Null without readings. Reads the newest reading, the newest one with
     * another value, and the first of the run after it: three index walks, however long the run.
     */
    async newestRun(sensorId: number, cap: number): Promise<{ newest: StoredMeasurement; run: { count: number; since: number } } | null> {
      const newest = await last(sensorId);
      if (!newest) return null;
      const differing = await db
        .selectFrom('measurements')
        .select(['measurement_id', 'timestamp'])
        .where('sensor_id', '=', sensorId)
        .where('value', '<>', newest.value)
        .orderBy('timestamp', 'desc')
        .orderBy('measurement_id', 'desc')
        .limit(1)
        .executeTakeFirst();
      let query = db.selectFrom('measurements').select(['measurement_id', 'timestamp']).where('sensor_id', '=', sensorId);
      if (differing) {
        const { timestamp, measurement_id } = differing;
        query = query.where((eb) =>
          eb.or([
            eb('timestamp', '>', dialect.at(timestamp)),
            eb.and([eb('timestamp', '=', dialect.at(timestamp)), eb('measurement_id', '>', measurement_id)]),
          ]),
        );
      }
      const run = await query.orderBy('timestamp').orderBy('measurement_id').limit(cap).execute();
      // The newest reading is in the run, unless it was deleted meanwhile: then it counts alone.
      return { newest, run: run.length === 0 ? { count: 1, since: newest.timestamp } : { count: run.length, since: run[0].timestamp } };
    },

    /**
     * The run of exactly equal values at the newest end of a sensor's readings (docs/api.md §14, stuck):
     * how many it holds, counted up to 3 (all the stuck rule needs), and when its oldest was taken.
     * Null when the sensor has no reading. Reads three rows and, for a run of three, two more.
     */
    async equalRun(sensorId: number): Promise<{ count: number; since: number } | null> {
      const newest = await db
        .selectFrom('measurements')
        .select(['measurement_id', 'value', 'timestamp'])
        .where('sensor_id', '=', sensorId)
        .orderBy('timestamp', 'desc')
        .orderBy('measurement_id', 'desc')
        .limit(3)
        .execute();
      if (newest.length === 0) return null;
      const value = newest[0].value;
      const equal = newest.findIndex((r) => r.value !== value);
      if (equal !== -1 || newest.length < 3) {
        const run = equal === -1 ? newest : newest.slice(0, equal);
        return { count: run.length, since: Number(run[run.length - 1].timestamp) };
      }
      // Three equal: the run reaches back to just after the newest reading of another value.
      const other = await db
        .selectFrom('measurements')
        .select(['measurement_id', 'timestamp'])
        .where('sensor_id', '=', sensorId)
        .where('value', '<>', value)
        .orderBy('timestamp', 'desc')
        .orderBy('measurement_id', 'desc')
        .limit(1)
        .executeTakeFirst();
      let first = db
        .selectFrom('measurements')
        .select('timestamp')
        .where('sensor_id', '=', sensorId)
        .orderBy('timestamp')
        .orderBy('measurement_id')
        .limit(1);
      if (other) {
        const at = dialect.at(Number(other.timestamp));
        first = first.where((eb) =>
          eb.or([eb('timestamp', '>', at), eb.and([eb('timestamp', '=', at), eb('measurement_id', '>', other.measurement_id)])]),
        );
      }
      const oldest = await first.executeTakeFirstOrThrow();
      return { count: 3, since: Number(oldest.timestamp) };
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
     * database. The window is read in slices of about ROWS_PER_SLICE rows (`rows` is how many it
     * holds), so no single query holds the store for long.
     */
    async extremesPerBucket(sensorId: number, window: TimeWindow, layout: BucketLayout, rows: number): Promise<StoredMeasurement[]> {
      const out: StoredMeasurement[] = [];
      for (const slice of layout.slices(rows, ROWS_PER_SLICE)) {
        const inSlice = inWindow(sensorId, window)
          .where('timestamp', '>=', dialect.at(slice.start))
          .where('timestamp', '<', dialect.at(slice.end));
        out.push(...(await dialect.extremesPerBucket(db, inSlice, layout)));
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
          dialect.timestampMs().as('timestamp'),
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
     * Rows another instance committed, read back by what its notice names: the sensors, the span
     * of the rows' timestamps, and their ids in inclusive ranges; by id (the order they were stored in).
     */
    readBack({ sensorIds, from, to, ranges }: ReadBack): Promise<StoredMeasurement[]> {
      if (ranges.length === 0 || sensorIds.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('measurements')
        .select(['measurement_id', 'sensor_id', 'value', dialect.timestampMs().as('timestamp')])
        .where('sensor_id', 'in', [...sensorIds])
        .where('timestamp', '>=', dialect.at(from))
        .where('timestamp', '<=', dialect.at(to))
        .where((eb) => eb.or(ranges.map(([first, last]) => eb.between('measurement_id', first, last))))
        .orderBy('measurement_id')
        .execute();
    },

    /** Refreshes the planner's statistics after a bulk load (where the store keeps any). */
    analyze(): Promise<void> {
      return dialect.analyze(db, 'measurements');
    },
  };
}

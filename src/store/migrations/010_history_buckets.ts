import { type Kysely, type Migration, sql } from 'kysely';
import { bucketStart, DAY, FIVE_MINUTES, HOUR } from '../../domain/bucket-sizes.js';
import type { Database } from '../database.js';
import type { Dialect } from '../dialect.js';
import { historyRepository } from '../repositories/history.js';
import { fiveMinuteBucketsSql, foldedBucketsSql, PACKED_ID_LIMIT } from './history-buckets-sql.js';

/** Where a long migration reports its progress. */
export type MigrationLog = (details: object, message: string) => void;

/** Rows per statement, about: long enough to be efficient, short enough for progress every few seconds. */
const ROWS_PER_SLICE = 500_000;
const PROGRESS_EVERY_MS = 2000;

/** A sensor's stored rows: how many, and the whole days they span. */
interface Extent {
  sensorId: number;
  rows: number;
  from: number;
  to: number;
}

async function extents(db: Kysely<Database>, dialect: Dialect): Promise<Extent[]> {
  const rows = await db
    .selectFrom('measurements')
    .select((eb) => [
      'sensor_id',
      eb.fn.countAll().as('n'),
      eb.fn.min(dialect.timestampMs()).as('first'),
      eb.fn.max(dialect.timestampMs()).as('last'),
    ])
    .groupBy('sensor_id')
    .orderBy('sensor_id')
    .execute();
  return rows.map((r) => ({
    sensorId: r.sensor_id,
    rows: Number(r.n),
    from: bucketStart(Number(r.first), DAY),
    to: bucketStart(Number(r.last), DAY) + DAY,
  }));
}

/** [from, to) cut into whole days of about ROWS_PER_SLICE rows each, assuming the rows spread evenly. */
function slices({ rows, from, to }: Extent): [number, number][] {
  const days = (to - from) / DAY;
  const daysPerSlice = Math.max(1, Math.floor((days * ROWS_PER_SLICE) / Math.max(1, rows)));
  const out: [number, number][] = [];
  for (let start = from; start < to; start += daysPerSlice * DAY) out.push([start, Math.min(to, start + daysPerSlice * DAY)]);
  return out;
}

/**
 * The history buckets (docs/api.md §10), built for the measurements already stored: per sensor, in
 * slices of whole days, the 5-minute buckets computed in the store from the raw rows, then the
 * hours folded from them and the days from the hours (history-buckets-sql.ts), with progress in
 * the log every two seconds.
 */
export function historyBucketsMigration(dialect: Dialect, log: MigrationLog): Migration {
  return {
    async up(untyped: Kysely<unknown>) {
      const db = untyped as Kysely<Database>;
      const int8 = dialect.schema.bigId;
      await db.schema
        .createTable('history_buckets')
        .addColumn('sensor_id', 'integer', (c) => c.notNull().references('sensors.sensor_id'))
        .addColumn('size_ms', 'integer', (c) => c.notNull())
        .addColumn('start_ms', int8, (c) => c.notNull())
        .addColumn('row_count', int8, (c) => c.notNull())
        .addColumn('value_sum', dialect.schema.float, (c) => c.notNull())
        .addColumn('min_value', dialect.schema.float, (c) => c.notNull())
        .addColumn('min_ts', int8, (c) => c.notNull())
        .addColumn('min_id', int8, (c) => c.notNull())
        .addColumn('max_value', dialect.schema.float, (c) => c.notNull())
        .addColumn('max_ts', int8, (c) => c.notNull())
        .addColumn('max_id', int8, (c) => c.notNull())
        .addColumn('first_value', dialect.schema.float, (c) => c.notNull())
        .addColumn('first_ts', int8, (c) => c.notNull())
        .addColumn('first_id', int8, (c) => c.notNull())
        .addColumn('last_value', dialect.schema.float, (c) => c.notNull())
        .addColumn('last_ts', int8, (c) => c.notNull())
        .addColumn('last_id', int8, (c) => c.notNull())
        .addPrimaryKeyConstraint('history_buckets_key', ['sensor_id', 'size_ms', 'start_ms'])
        .execute();

      const sensors = await extents(db, dialect);
      const total = sensors.reduce((n, s) => n + s.rows, 0);
      if (total === 0) return;
      log({ sensors: sensors.length, rows: total }, 'history buckets: building for the existing measurements');
      const began = Date.now();
      const maxId = Number(
        (
          await db
            .selectFrom('measurements')
            .select((eb) => eb.fn.max('measurement_id').as('id'))
            .executeTakeFirstOrThrow()
        ).id,
      );
      // Ids past what SQLite's packed keys hold: the rows are walked in JavaScript instead (slower, same buckets).
      const inStore = dialect.kind === 'postgres' || maxId < PACKED_ID_LIMIT;
      const history = historyRepository(db, dialect, { stamped: false });
      let done = 0;
      let lastReport = began;
      for (const sensor of sensors) {
        for (const [from, to] of inStore ? slices(sensor) : [[sensor.from, sensor.to]]) {
          if (inStore) {
            await fiveMinuteBucketsSql(dialect.kind, sensor.sensorId, from, to).execute(db);
            await foldedBucketsSql(HOUR, FIVE_MINUTES, sensor.sensorId, from, to).execute(db);
            await foldedBucketsSql(DAY, HOUR, sensor.sensorId, from, to).execute(db);
          } else {
            await history.rebuild(sensor.sensorId, from, to);
          }
          done += await rowsIn(db, sensor.sensorId, from, to);
          if (Date.now() - lastReport >= PROGRESS_EVERY_MS) {
            lastReport = Date.now();
            log({ rows: done, of: total, percent: Math.floor((100 * done) / total) }, 'history buckets: progress');
          }
        }
      }
      log({ rows: done, ms: Date.now() - began }, 'history buckets: built');
    },
    async down(db: Kysely<unknown>) {
      await sql`drop table if exists history_buckets`.execute(db);
    },
  };
}

/** The rows the day buckets of [from, to) count: what a slice built. */
async function rowsIn(db: Kysely<Database>, sensorId: number, from: number, to: number): Promise<number> {
  const row = await db
    .selectFrom('history_buckets')
    .select((eb) => eb.fn.sum<number | string>('row_count').as('n'))
    .where('sensor_id', '=', sensorId)
    .where('size_ms', '=', DAY)
    .where('start_ms', '>=', from)
    .where('start_ms', '<', to)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

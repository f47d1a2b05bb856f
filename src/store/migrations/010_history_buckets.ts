import { type Kysely, type Migration, sql } from 'kysely';
import type { Database } from '../database.js';
import type { Dialect } from '../dialect.js';
import { historyRepository } from '../repositories/history.js';

/** Where a long migration reports its progress. */
export type MigrationLog = (details: object, message: string) => void;

/**
 * The history buckets (API.md §10), built for the measurements already stored: sensor by sensor,
 * walking each one's rows in time order, with progress in the log.
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

      const sensors = (await db.selectFrom('sensors').select('sensor_id').orderBy('sensor_id').execute()).map((r) => r.sensor_id);
      const total = Number(
        (
          await db
            .selectFrom('measurements')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
      if (total === 0) return;
      log({ sensors: sensors.length, rows: total }, 'history buckets: building for the existing measurements');
      const history = historyRepository(db, dialect);
      const began = Date.now();
      let rows = 0;
      let lastReport = began;
      for (const sensorId of sensors) {
        const before = rows;
        const done = await history.rebuild(sensorId, undefined, undefined, (p) => {
          if (Date.now() - lastReport < 2000) return;
          lastReport = Date.now();
          const at = before + p.rows;
          log({ rows: at, of: total, percent: Math.floor((100 * at) / total) }, 'history buckets: progress');
        });
        rows += done.rows;
      }
      log({ rows, ms: Date.now() - began }, 'history buckets: built');
    },
    async down(db: Kysely<unknown>) {
      await sql`drop table if exists history_buckets`.execute(db);
    },
  };
}

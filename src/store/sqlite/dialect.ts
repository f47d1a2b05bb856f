import { sql } from 'kysely';
import type { Dialect } from '../dialect.js';

/** Rows per statement: SQLite binds at most 32766 values per statement, three per row here. */
const ROWS_PER_INSERT = 5_000;

/** SQLite: timestamps are INTEGER epoch ms, booleans 0/1, and one write lock covers the whole store. */
export const sqliteDialect: Dialect = {
  kind: 'sqlite',
  schema: {
    time: 'integer',
    float: 'real',
    bool: 'integer',
    bytes: 'blob',
    bigId: 'integer',
    identity: (column) => column.primaryKey().autoIncrement(),
    // A rowid key keeps inserts cheapest (SQLite integers are 64-bit already).
    rowKey: (column) => column.primaryKey(),
  },
  time: (ms) => ms,
  at: (ms) => ms,
  bool: (value) => (value ? 1 : 0),
  timeType: sql.raw('integer'),
  timestampMs: () => sql<number>`${sql.ref('timestamp')}`,

  // A write transaction holds the store's only write lock already.
  lockRows: async () => {},
  lockingTable: (db, _table, work) => work(db),
  forUpdate: (query) => query,
  forKeyShare: (query) => query,
  forUpdateSkipLocked: (query) => query,

  /**
   * Keeps one of the tied rows on a tie (its bare columns of min()/max(): one pass and no sort,
   * three times faster than ranking the rows), then lets other requests run: the query held the
   * event loop.
   */
  async extremesPerBucket(db, selection, { first, count, span }) {
    // Doubles, in the same order of operations as BucketLayout.of, then truncated (never negative).
    const bucket = sql<number>`cast((timestamp - ${first}) * ${count} / ${span} as integer)`;
    const extreme = (fn: 'min' | 'max') =>
      selection.select(['measurement_id', 'sensor_id', sql<number>`${sql.raw(fn)}(value)`.as('value'), 'timestamp']).groupBy(bucket);
    const kept = await db
      .selectFrom(extreme('min').union(extreme('max')).as('e'))
      .selectAll()
      .orderBy('timestamp')
      .orderBy('measurement_id')
      .execute();
    await new Promise((resolve) => setImmediate(resolve));
    return kept;
  },

  async insertSeries(db, sensorId, timestamps, values) {
    for (let i = 0; i < timestamps.length; i += ROWS_PER_INSERT) {
      const end = Math.min(timestamps.length, i + ROWS_PER_INSERT);
      const rows = [];
      for (let k = i; k < end; k++) rows.push({ sensor_id: sensorId, value: values[k], timestamp: timestamps[k] });
      await db.insertInto('measurements').values(rows).execute();
    }
  },

  // SQLite's planner needs no statistics to follow the indexes these queries use.
  analyze: async () => {},
  // An explicit id moves SQLite's autoincrement counter on by itself.
  continueIdentity: async () => {},
};

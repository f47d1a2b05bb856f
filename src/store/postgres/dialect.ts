import { sql } from 'kysely';
import type { Dialect } from '../dialect.js';

/** Rows per array-parameter insert (two arrays of this many numbers per statement). */
const ROWS_PER_ARRAY_INSERT = 50_000;

/** PostgreSQL: timestamptz and boolean columns, row locks, window functions and array parameters. */
export const postgresDialect: Dialect = {
  kind: 'postgres',
  schema: {
    time: 'timestamptz',
    float: 'double precision',
    bool: 'boolean',
    bytes: 'bytea',
    bigId: 'bigint',
    identity: (column) => column.primaryKey().generatedByDefaultAsIdentity(),
    rowKey: (column) => column.primaryKey().generatedByDefaultAsIdentity(),
  },
  time: (ms) => new Date(ms),
  // The one place a Date stands in for the column's epoch-ms read type (see Dialect.at).
  at: (ms) => new Date(ms) as unknown as number,
  bool: (value) => value,
  timeType: sql.raw('timestamptz'),
  // Epoch ms as an integer, read back with Number(), rather than timestamptz text parsed as a date
  // per row (a third of the time of a long read).
  timestampMs: () => sql<number>`(extract(epoch from ${sql.ref('timestamp')}) * 1000)::int8`,

  async lockRows(db, table, ids) {
    if (ids.length === 0) return;
    const key = table === 'sensors' ? 'sensor_id' : 'actuator_id';
    await sql`select ${sql.ref(key)} from ${sql.table(table)} where ${sql.ref(key)} in (${sql.join([...new Set(ids)])}) order by ${sql.ref(key)} for update`.execute(
      db,
    );
  },

  forUpdate: (query) => query.forUpdate(),
  forKeyShare: (query) => query.forKeyShare(),
  forUpdateSkipLocked: (query) => query.forUpdate().skipLocked(),

  lockingTable(db, table, work) {
    const locked = async (trx: typeof db) => {
      // Conflicts with itself and with plain inserts, not with reads: writers take turns.
      await sql`lock table ${sql.table(table)} in share row exclusive mode`.execute(trx);
      return work(trx);
    };
    return db.isTransaction ? locked(db) : db.transaction().execute(locked);
  },

  /** On a tie keeps the earliest row. */
  extremesPerBucket(db, selection, { first, count, span }) {
    // Integer arithmetic on epoch ms: the floor division picks the same bucket as BucketLayout.of.
    const bucket = sql<number>`((extract(epoch from timestamp) * 1000)::int8 - ${first}::int8) * ${count}::int8 / ${span}::int8`;
    const ranked = selection.select([
      'measurement_id',
      'sensor_id',
      'value',
      'timestamp',
      sql<number>`row_number() over (partition by ${bucket} order by value, timestamp, measurement_id)`.as('low_rank'),
      sql<number>`row_number() over (partition by ${bucket} order by value desc, timestamp, measurement_id)`.as('high_rank'),
    ]);
    return db
      .selectFrom(ranked.as('r'))
      .select(['measurement_id', 'sensor_id', 'value', 'timestamp'])
      .where((eb) => eb.or([eb('low_rank', '=', 1), eb('high_rank', '=', 1)]))
      .orderBy('timestamp')
      .orderBy('measurement_id')
      .execute();
  },

  /**
   * Two array parameters per statement instead of three values per row: PostgreSQL parses one
   * large array far faster than thousands of placeholders (1,000,000 rows: 13 s → a few).
   * Milliseconds → timestamptz by interval arithmetic, exact (a double division is not).
   */
  async insertSeries(db, sensorId, timestamps, values) {
    for (let i = 0; i < timestamps.length; i += ROWS_PER_ARRAY_INSERT) {
      const end = Math.min(timestamps.length, i + ROWS_PER_ARRAY_INSERT);
      await sql`insert into measurements (sensor_id, value, timestamp)
        select ${sensorId}, u.value, timestamptz 'epoch' + u.ms * interval '1 millisecond'
        from unnest(${Array.from(values.subarray(i, end))}::float8[], ${Array.from(timestamps.subarray(i, end))}::int8[]) as u(value, ms)`.execute(
        db,
      );
    }
  },

  /**
   * Without fresh statistics, a table that grew from empty to millions of rows before autovacuum
   * came by is taken to be tiny, and each page of a long read sorts the whole rest of the window
   * instead of following the index.
   */
  async analyze(db, table) {
    // Measurements: each day partition is analyzed by autovacuum as it fills, and the planner
    // plans each partition by its own statistics (the parent's would take a pass over every day).
    if (table === 'measurements') return;
    await sql`analyze ${sql.table(table)}`.execute(db);
  },

  async continueIdentity(db, table, column) {
    await sql`select setval(pg_get_serial_sequence(${table}, ${column}), coalesce((select max(${sql.ref(column)}) from ${sql.table(table)}), 0) + 1, false)`.execute(
      db,
    );
  },
};

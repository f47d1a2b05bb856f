import { ingestion, knownSensors, ping, prepare, removalsOf, storeRepositories } from '../common.js';
import { withInsides } from '../insides.js';
import { repositories } from '../repositories/index.js';
import type { FastPaths, OpenStoreOptions, Store, StoreInstruments } from '../store.js';
import { coalesceReads } from './coalesce-reads.js';
import { openPostgres } from './connection.js';
import { postgresDialect as dialect } from './dialect.js';
import { postgresGroupCommit } from './group-commit.js';
import { postgresHotPaths } from './hot-paths.js';
import { leases } from './leases.js';
import { migrationDb } from './migration-lock.js';
import { daysAhead, daysOf, dropDaysBefore, makeDayPartitions, withDayPartitions } from './partitions.js';
import { postgresRelayChannel } from './relay-channel.js';
import { withRetry } from './retry.js';
import { rollUpOnce } from './rollup.js';
import { loadSeries } from './bulk-load.js';
import { copyCsvLines } from './csv-copy.js';
import { portableCopy } from '../backup/portable.js';

/**
 * A store on a PostgreSQL database, shared by any number of service processes: measurements in
 * day partitions, ingest as group commit through one statement that writes the rows and their
 * 5-minute buckets, the polled reads shared by concurrent callers, background work under leases,
 * and transactions (ingest's statement too) run again when they lose a deadlock. Nothing is kept
 * in a server session between transactions, so PgBouncer's transaction mode can stand in between.
 */
export async function openPostgresStore(databaseUrl: string, options: OpenStoreOptions = {}): Promise<Store> {
  const { db, pool } = openPostgres(databaseUrl, options);
  try {
    const migrating = migrationDb(databaseUrl);
    try {
      await prepare(db, dialect, options.seedDefaults ?? true, options.log, undefined, migrating);
    } finally {
      await migrating.destroy();
    }
    await makeDayPartitions(db, daysAhead(Date.now()));
  } catch (error) {
    await db.destroy();
    throw error;
  }

  const repos = repositories(db, dialect);
  const hot = postgresHotPaths(pool);
  const instruments: StoreInstruments = {};
  // The insert is one statement outside any transaction of ours: one that lost a deadlock wrote
  // nothing and can simply run again, as the transactions below do; one that met a day without
  // its partition (a late reading, a clock far off) wrote nothing either, and runs again once
  // the partition is made.
  const groupCommit = postgresGroupCommit(
    (rows) =>
      withRetry(() =>
        withDayPartitions(
          db,
          () => daysOf(rows.map((r) => r.timestamp)),
          () => hot.insert(rows),
        ),
      ),
    { onGroupCommitted: (requests, rows) => instruments.groupCommitted?.(requests, rows) },
  );
  const polled = { lastMeasurement: coalesceReads(hot.lastMeasurement), actuator: coalesceReads(hot.actuator) };
  const known = knownSensors(repos.sensors.existing);
  const jobs = leases(db);
  // The polled reads shared by concurrent callers; windows page through the query builder.
  const fast: FastPaths = {
    existingSensors: known.existing,
    lastMeasurement: polled.lastMeasurement,
    walkWindow: repos.measurements.walkWindow,
    actuator: polled.actuator,
    bucketRows: hot.bucketRows,
    dayStamps: hot.dayStamps,
  };

  const store: Store = {
    kind: 'postgres',
    ...storeRepositories(repos, fast),
    polled,
    ingest: ingestion(groupCommit.insert, instruments, known),
    transaction: (work) => withRetry(() => db.transaction().execute((trx) => work(repositories(trx, dialect)))),
    exclusively: (name, work) => jobs.exclusively(name, work),
    remove: removalsOf(db, dialect, (work) => withRetry(() => db.transaction().execute(work)), known),
    relay: postgresRelayChannel(options.listenUrl ?? databaseUrl, db),
    loadSeries: async (series, replace) => {
      const timestamps = function* () {
        for (const s of series) yield* s.timestamps;
      };
      const deleted = await loadSeries(pool, series, replace, async () => {
        await makeDayPartitions(db, daysOf(timestamps()));
      });
      hot.forgetNewest();
      return deleted;
    },
    copyCsvLines: (sensorId, window, head, tail) => copyCsvLines(pool, sensorId, window, head, tail),
    upkeep: {
      partitionsAhead: (now) => makeDayPartitions(db, daysAhead(now)),
      rollUp: async () =>
        rollUpOnce(
          db,
          (await repos.sensors.list()).map((s) => s.sensor_id),
        ),
      dropRawBefore: (cutoff) => dropDaysBefore(db, cutoff),
    },
    instruments,
    exposedFiles: () => [],
    poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    ping: (timeoutMs) => ping(db, timeoutMs),
    backupTo: (dest, progress) => portableCopy(store, dest, progress),
    close: () => db.destroy(),
  };
  return withInsides(store, { db, dialect, pool });
}

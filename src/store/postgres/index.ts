import { ingestion, knownSensors, ping, prepare, removalsOf, storeRepositories } from '../common.js';
import { withInsides } from '../insides.js';
import { repositories } from '../repositories/index.js';
import type { FastPaths, OpenStoreOptions, Store, StoreInstruments } from '../store.js';
import { coalesceReads } from './coalesce-reads.js';
import { openPostgres } from './connection.js';
import { postgresDialect as dialect } from './dialect.js';
import { postgresGroupCommit } from './group-commit.js';
import { postgresHotPaths } from './hot-paths.js';
import { postgresRelayChannel } from './relay-channel.js';
import { withRetry } from './retry.js';
import { exclusively } from './exclusive.js';
import { underStartupLock } from './startup-lock.js';
import { portableCopy } from '../backup/portable.js';

/**
 * A store on a PostgreSQL database, shared by any number of service processes: ingest as group
 * commit through a prepared insert, the polled reads as prepared statements whose concurrent
 * callers share one query, and transactions (ingest's statement too) run again when they lose a deadlock.
 */
export async function openPostgresStore(databaseUrl: string, options: OpenStoreOptions = {}): Promise<Store> {
  const { db, pool } = openPostgres(databaseUrl, options);
  try {
    await underStartupLock(pool, () => prepare(db, dialect, options.seedDefaults ?? true, options.log));
  } catch (error) {
    await db.destroy();
    throw error;
  }

  const repos = repositories(db, dialect);
  const hot = postgresHotPaths(pool);
  const instruments: StoreInstruments = {};
  // The insert is one statement outside any transaction of ours: one that lost a deadlock wrote
  // nothing and can simply run again, as the transactions below do.
  const groupCommit = postgresGroupCommit((rows) => withRetry(() => hot.insert(rows)), {
    onGroupCommitted: (requests, rows) => instruments.groupCommitted?.(requests, rows),
  });
  const polled = { lastMeasurement: coalesceReads(hot.lastMeasurement), actuator: coalesceReads(hot.actuator) };
  const known = knownSensors(repos.sensors.existing);
  // Prepared statements, the polled ones shared by concurrent callers; windows page through the query builder.
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
    exclusively: (name, work) => exclusively(pool, name, work),
    remove: removalsOf(db, dialect, (work) => withRetry(() => db.transaction().execute(work)), known),
    relay: postgresRelayChannel(databaseUrl, db),
    instruments,
    exposedFiles: () => [],
    poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    ping: (timeoutMs) => ping(db, timeoutMs),
    backupTo: (dest, progress) => portableCopy(store, dest, progress),
    close: () => db.destroy(),
  };
  return withInsides(store, { db, dialect });
}

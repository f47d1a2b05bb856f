import { ingestion, knownSensors, ping, prepare, removalsOf } from '../common.js';
import { repositories } from '../repositories/index.js';
import type { OpenStoreOptions, Store, StoreInstruments } from '../store.js';
import { coalesceReads } from './coalesce-reads.js';
import { openPostgres } from './connection.js';
import { postgresDialect as dialect } from './dialect.js';
import { postgresGroupCommit } from './group-commit.js';
import { postgresHotPaths } from './hot-paths.js';
import { withRetry } from './retry.js';
import { exclusively } from './exclusive.js';
import { underStartupLock } from './startup-lock.js';

/**
 * A store on a PostgreSQL database, shared by any number of service processes: ingest as group
 * commit through a prepared insert, the polled reads as prepared statements whose concurrent
 * callers share one query, and transactions run again when they lose a deadlock.
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
  const groupCommit = postgresGroupCommit(hot.insert, {
    onGroupCommitted: (requests, rows) => instruments.groupCommitted?.(requests, rows),
  });
  const polled = { lastMeasurement: coalesceReads(hot.lastMeasurement), actuator: coalesceReads(hot.actuator) };
  const known = knownSensors(repos.sensors, repos.sensors.existing);

  return {
    ...repos,
    sensors: known.sensors,
    measurements: { ...repos.measurements, last: polled.lastMeasurement },
    actuators: { ...repos.actuators, get: polled.actuator },
    history: { ...repos.history, bucketRows: hot.bucketRows, dayStamps: hot.dayStamps },
    dialect,
    db,
    polled,
    ingest: ingestion(groupCommit.insert, instruments, known),
    transaction: (work) => withRetry(() => db.transaction().execute((trx) => work(repositories(trx, dialect)))),
    exclusively: (name, work) => exclusively(pool, name, work),
    remove: removalsOf(db, dialect, (work) => withRetry(() => db.transaction().execute(work)), known),
    instruments,
    exposedFiles: () => [],
    poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    ping: (timeoutMs) => ping(db, timeoutMs),
    close: () => db.destroy(),
  };
}

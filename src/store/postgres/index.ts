import { ping, prepare, rememberingSensors } from '../common.js';
import { repositories } from '../repositories/index.js';
import type { OpenStoreOptions, Store } from '../store.js';
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
  const groupCommit = postgresGroupCommit(hot.insert);
  const polled = { lastMeasurement: coalesceReads(hot.lastMeasurement), actuator: coalesceReads(hot.actuator) };

  return {
    ...repos,
    sensors: rememberingSensors(repos.sensors, repos.sensors.existing),
    measurements: { ...repos.measurements, last: polled.lastMeasurement },
    actuators: { ...repos.actuators, get: polled.actuator },
    dialect,
    db,
    polled,
    ingest: groupCommit.insert,
    transaction: (work) => withRetry(() => db.transaction().execute((trx) => work(repositories(trx, dialect)))),
    exclusively: (name, work) => exclusively(pool, name, work),
    ping: () => ping(db),
    close: () => db.destroy(),
  };
}

import { restAfter, type TimeWindow } from '../../domain/time-window.js';
import { ingestion, knownSensors, ping, prepare, removalsOf } from '../common.js';
import type { StoredMeasurement } from '../database.js';
import { repositories } from '../repositories/index.js';
import { ROWS_PER_PAGE } from '../repositories/measurements.js';
import type { OpenStoreOptions, Store, StoreInstruments } from '../store.js';
import { openSqlite } from './connection.js';
import { sqliteDialect as dialect } from './dialect.js';
import { sqliteGroupCommit } from './group-commit.js';
import { sqliteHistoryUpsert } from './history-upsert.js';
import { sqliteHotCache } from './hot-cache.js';
import { type SqliteReader, sqliteReader } from './reader.js';
import { inOneWriteTransaction } from './migration-lock.js';
import { walProbe } from './wal-probe.js';
import { exposedStoreFiles } from './file-permissions.js';

/**
 * A store on one SQLite file (or in memory, for `sqlite::memory:`): the query builder on the
 * writing connection, ingest as group commit on the same connection, and the polled reads and
 * long windows from a read-only connection of prepared statements, the newest values kept in
 * memory.
 */
export async function openSqliteStore(databaseUrl: string, options: OpenStoreOptions = {}): Promise<Store> {
  const connection = openSqlite(databaseUrl, options.sqliteSynchronous);
  const { db } = connection;
  try {
    const log = options.log ?? (() => {});
    await prepare(db, dialect, options.seedDefaults ?? true, log, (migrate) =>
      inOneWriteTransaction(connection.sqlite, migrate, () =>
        log({ file: connection.file }, 'another process is writing to the store; migrations wait for it'),
      ),
    );
  } catch (error) {
    await db.destroy();
    throw error;
  }

  const repos = repositories(db, dialect);
  // In memory there is no file for a second connection to open: everything goes through the writer.
  const reader = connection.file ? sqliteReader(connection.file) : undefined;
  const cache = reader && sqliteHotCache(connection.sqlite, reader, walProbe(connection.file as string));
  if (cache) connection.onQueryBuilderWrite(cache.dropAll);
  const instruments: StoreInstruments = {};
  const groupCommit = sqliteGroupCommit(connection.sqlite, {
    onCommitted: cache?.committed,
    beforeCommit: sqliteHistoryUpsert(connection.sqlite),
    onGroupCommitted: (requests, rows) => instruments.groupCommitted?.(requests, rows),
  });
  const polled = cache ?? { lastMeasurement: repos.measurements.last, actuator: repos.actuators.get };
  const known = knownSensors(repos.sensors, reader ? (ids) => ids.filter((id) => reader.sensorExists(id)) : repos.sensors.existing);

  return {
    ...repos,
    sensors: known.sensors,
    measurements:
      cache && reader
        ? {
            ...repos.measurements,
            last: async (sensorId: number) => cache.lastMeasurement(sensorId),
            walkWindow: (sensorId: number, window: TimeWindow) => walkWindow(reader, sensorId, window),
          }
        : repos.measurements,
    actuators: cache ? { ...repos.actuators, get: async (actuatorId: number) => cache.actuator(actuatorId) } : repos.actuators,
    history: reader
      ? {
          ...repos.history,
          bucketRows: async (...args: Parameters<SqliteReader['bucketRows']>) => reader.bucketRows(...args),
          dayStamps: async (...args: Parameters<SqliteReader['dayStamps']>) => reader.dayStamps(...args),
        }
      : repos.history,
    dialect,
    db,
    polled,
    ingest: ingestion(groupCommit.insert, instruments, known),
    transaction: (work) => db.transaction().execute((trx) => work(repositories(trx, dialect))),
    exclusively: (_name, work) => work(),
    remove: removalsOf(db, dialect, (work) => db.transaction().execute(work), known),
    instruments,
    exposedFiles: () => (connection.file ? exposedStoreFiles(connection.file) : []),
    ping: (timeoutMs) => ping(db, timeoutMs),
    async close() {
      reader?.close();
      await db.destroy();
    },
  };
}

/** A window page by page from the reader's prepared statements (keyset pagination). */
async function* walkWindow(reader: SqliteReader, sensorId: number, window: TimeWindow): AsyncGenerator<StoredMeasurement[]> {
  let after: StoredMeasurement | undefined;
  for (;;) {
    const page = reader.windowPage(sensorId, after ? restAfter(window, after.timestamp) : window, after, ROWS_PER_PAGE);
    if (page.length > 0) yield page;
    if (page.length < ROWS_PER_PAGE) return;
    after = page[page.length - 1];
    // Let other requests run between pages of a long series.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

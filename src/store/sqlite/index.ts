import { restAfter, type TimeWindow } from '../../domain/time-window.js';
import { ingestion, type KnownSensors, knownSensors, ping, prepare, removalsOf, storeRepositories } from '../common.js';
import type { StoredMeasurement } from '../database.js';
import { withInsides } from '../insides.js';
import { type Repositories, repositories } from '../repositories/index.js';
import { ROWS_PER_PAGE } from '../repositories/measurements.js';
import type { FastPaths, OpenStoreOptions, Store, StoreInstruments } from '../store.js';
import { openSqlite } from './connection.js';
import { sqliteDialect as dialect } from './dialect.js';
import { sqliteGroupCommit } from './group-commit.js';
import { sqliteHistoryUpsert } from './history-upsert.js';
import { type SqliteHotCache, sqliteHotCache } from './hot-cache.js';
import { type SqliteReader, sqliteReader } from './reader.js';
import { inOneWriteTransaction } from './migration-lock.js';
import { walProbe } from './wal-probe.js';
import { sqliteWindowText } from './window-text.js';
import { sqliteCsvLines } from './csv-lines.js';
import { exposedStoreFiles } from './file-permissions.js';
import { backupSqliteFile } from '../backup/sqlite-file.js';
import { holdStoreLock } from './store-lock.js';

/**
 * A store on one SQLite file (or in memory, for `sqlite::memory:`): the query builder on the
 * writing connection, ingest as group commit on the same connection, and the polled reads and
 * long windows from a read-only connection of prepared statements, the newest values kept in
 * memory.
 */
export async function openSqliteStore(databaseUrl: string, options: OpenStoreOptions = {}): Promise<Store> {
  const connection = openSqlite(databaseUrl, options.sqliteSynchronous);
  const { db } = connection;
  // Tells a restore that this process has the store open (see store-lock.ts).
  const releaseLock = connection.file ? holdStoreLock(connection.file) : () => {};
  try {
    const log = options.log ?? (() => {});
    await prepare(db, dialect, options.seedDefaults ?? true, log, (migrate) =>
      inOneWriteTransaction(connection.sqlite, migrate, () =>
        log({ file: connection.file }, 'another process is writing to the store; migrations wait for it'),
      ),
    );
  } catch (error) {
    await db.destroy();
    releaseLock();
    throw error;
  }

  const repos = repositories(db, dialect);
  // In memory there is no file for a second connection to open: everything goes through the writer.
  const reader = connection.file ? sqliteReader(connection.file) : undefined;
  const cache = reader && sqliteHotCache(connection.sqlite, reader, walProbe(connection.file as string));
  if (cache) connection.onQueryBuilderWrite(cache.dropAll);
  const windows = reader && cache && sqliteWindowText(reader, cache);
  const instruments: StoreInstruments = {};
  const groupCommit = sqliteGroupCommit(connection.sqlite, {
    onCommitted:
      cache &&
      windows &&
      ((rows) => {
        cache.committed(rows);
        windows.committed(rows);
      }),
    beforeCommit: sqliteHistoryUpsert(connection.sqlite),
    onGroupCommitted: (requests, rows) => instruments.groupCommitted?.(requests, rows),
  });
  const known = knownSensors(reader ? (ids) => ids.filter((id) => reader.sensorExists(id)) : repos.sensors.existing);
  const fast = reader && cache ? fileFastPaths(reader, cache, known) : memoryFastPaths(repos, known);

  const store: Store = {
    kind: 'sqlite',
    ...storeRepositories(repos, fast),
    polled: cache ?? { lastMeasurement: repos.measurements.last, actuator: repos.actuators.get },
    ingest: ingestion(groupCommit.insert, instruments, known),
    windowText: windows && { cached: windows.cached, read: windows.read },
    copyCsvLines: reader && ((sensorId, window, head, tail) => sqliteCsvLines(reader, sensorId, window, head, tail)),
    transaction: (work) => db.transaction().execute((trx) => work(repositories(trx, dialect))),
    exclusively: (_name, work) => work(),
    remove: removalsOf(db, dialect, (work) => db.transaction().execute(work), known),
    instruments,
    exposedFiles: () => (connection.file ? exposedStoreFiles(connection.file) : []),
    ping: (timeoutMs) => ping(db, timeoutMs),
    backupTo: (dest, progress) =>
      connection.file
        ? backupSqliteFile(connection.file, dest, (copied, total) => progress({ part: 'pages', copied, total }))
        : Promise.reject(new Error('a store in memory has no file to back up')),
    async close() {
      reader?.close();
      await db.destroy();
      releaseLock();
    },
  };
  return withInsides(store, { db, dialect });
}

/**
 * On a file: the newest values from the in-memory copy, windows and buckets from the read-only
 * connection's prepared statements, the sensors known or looked up there.
 */
function fileFastPaths(reader: SqliteReader, cache: SqliteHotCache, known: KnownSensors): FastPaths {
  return {
    existingSensors: known.existing,
    lastMeasurement: async (sensorId) => cache.lastMeasurement(sensorId),
    walkWindow: (sensorId, window) => walkWindow(reader, sensorId, window),
    actuator: async (actuatorId) => cache.actuator(actuatorId),
    bucketRows: async (read, sensorId, size, from, to) => reader.bucketRows(read, sensorId, size, from, to),
    dayStamps: async (sensorId, from, to) => reader.dayStamps(sensorId, from, to),
  };
}

/** In memory: the query builder on the only connection, the sensors known or looked up through it. */
function memoryFastPaths(repos: Repositories, known: KnownSensors): FastPaths {
  return {
    existingSensors: known.existing,
    lastMeasurement: repos.measurements.last,
    walkWindow: repos.measurements.walkWindow,
    actuator: repos.actuators.get,
    bucketRows: repos.history.bucketRows,
    dayStamps: repos.history.dayStamps,
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

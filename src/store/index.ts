import { type Kysely, Migrator, sql } from 'kysely';
import type { Config } from '../config.js';
import { actuatorRepository, type StoredActuator } from './actuators.js';
import { connect, type Connection, type PostgresOptions } from './connect.js';
import type { Database } from './database.js';
import { type Dialect, dialectFor } from './dialect.js';
import { restAfter, type TimeWindow } from '../domain/time-window.js';
import { measurementRepository, type NewMeasurement, ROWS_PER_PAGE, type StoredMeasurement } from './measurements.js';
import { migrationProvider } from './migrations/index.js';
import { pictureRepository } from './pictures.js';
import { prototypeRepository } from './prototypes.js';
import { type Removal, removals } from './removals.js';
import { isMissingReference } from './errors.js';
import { seedDefaults } from './seed-defaults.js';
import { sensorRepository } from './sensors.js';
import { settingRepository } from './settings.js';
import { sqliteGroupCommit } from './sqlite-group-commit.js';
import { sqliteHotCache } from './sqlite-hot-cache.js';
import { walProbe } from './sqlite-wal-probe.js';
import { sqliteReader } from './sqlite-reader.js';
import { coalesceReads } from './coalesce-reads.js';
import { postgresGroupCommit } from './postgres-group-commit.js';
import { postgresHotPaths } from './postgres-reader.js';
import { userRepository } from './users.js';

/** Every repository, bound either to the store or to one transaction. */
function repositories(db: Kysely<Database>, dialect: Dialect) {
  return {
    prototypes: prototypeRepository(db),
    sensors: sensorRepository(db, dialect),
    settings: settingRepository(db),
    measurements: measurementRepository(db, dialect),
    actuators: actuatorRepository(db, dialect),
    users: userRepository(db, dialect),
    pictures: pictureRepository(db, dialect),
  };
}

export type Repositories = ReturnType<typeof repositories>;

export interface Store extends Repositories {
  dialect: Dialect;
  db: Kysely<Database>;
  /**
   * Records measurements (all or none), resolving once they are committed. On SQLite concurrent
   * calls share one commit (group commit); on PostgreSQL each call is one multi-row insert.
   */
  ingest(rows: readonly NewMeasurement[]): Promise<StoredMeasurement[]>;
  /**
   * Runs `work` in one transaction: everything it writes commits together or not at all. On
   * PostgreSQL a transaction that lost a deadlock or a serialization conflict to a concurrent
   * writer is run again (a few times), so concurrent bulk updates all succeed.
   */
  transaction<T>(work: (tx: Repositories) => Promise<T>): Promise<T>;
  /**
   * Deletes, each one transaction. A sensor or prototype that still has something below it is
   * refused (`has-dependents`, with the counts) unless `cascade`.
   */
  remove: {
    measurement(measurementId: number): Promise<boolean>;
    actuator(actuatorId: number): Promise<boolean>;
    sensor(sensorId: number, cascade: boolean): Promise<Removal>;
    prototype(prototypeId: number, cascade: boolean): Promise<Removal>;
  };
  /**
   * The two reads devices poll, as directly as the store allows: from SQLite's in-memory copy
   * without a promise, from PostgreSQL through prepared statements.
   */
  polled: PolledReads;
  /** Hooks the app sets to observe the store (metrics); unset, they cost nothing. */
  instruments: StoreInstruments;
  /** PostgreSQL: the connection pool's use right now (SQLite has no pool). */
  poolUse?(): { total: number; idle: number; waiting: number };
  /** True when the store answers a trivial query within `timeoutMs` (default one second). */
  ping(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

export type MaybePromise<T> = T | Promise<T>;

export interface StoreInstruments {
  /** Measurements committed by `ingest`. */
  ingested?(rows: number): void;
  /** One commit of the group commit: how many requests and rows it carried. */
  groupCommitted?(requests: number, rows: number): void;
}

export interface PolledReads {
  lastMeasurement(sensorId: number): MaybePromise<StoredMeasurement | undefined>;
  actuator(actuatorId: number): MaybePromise<StoredActuator | undefined>;
}

export interface OpenStoreOptions extends PostgresOptions {
  seedDefaults?: boolean;
}

export function storeOptions(config: Config): OpenStoreOptions {
  return {
    seedDefaults: config.seedDefaults,
    poolSize: config.databasePoolSize,
    connectTimeoutMs: config.databaseConnectTimeoutMs,
    statementTimeoutMs: config.databaseStatementTimeoutMs,
    sqliteSynchronous: config.sqliteSynchronous,
  };
}

/** Any number: it only has to be the same for every process of this service. */
const STARTUP_LOCK = 0x5e_2507;

/**
 * Migrations and default data, once per store. On PostgreSQL several processes may start at the
 * same moment: a session advisory lock, held on a connection of its own, makes them take turns,
 * so the second finds the schema migrated and the defaults in place.
 */
async function prepare(connection: Connection, dialect: Dialect, seed: boolean): Promise<void> {
  const { db } = connection;
  const run = async () => {
    const { error } = await new Migrator({ db, provider: migrationProvider(connection.kind) }).migrateToLatest();
    if (error) throw error;
    if (seed) await seedDefaults(db, dialect);
  };
  if (!connection.pool) return run();
  const lockHolder = await connection.pool.connect();
  try {
    await lockHolder.query('select pg_advisory_lock($1)', [STARTUP_LOCK]);
    await run();
  } finally {
    await lockHolder.query('select pg_advisory_unlock($1)', [STARTUP_LOCK]).catch(() => {});
    lockHolder.release();
  }
}

/** How long /healthz waits for the store to answer `select 1`. */
export const PING_TIMEOUT_MS = 1000;

const RETRYABLE = new Set(['40P01', '40001']);

async function withRetry<T>(attempt: () => Promise<T>, tries = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (i >= tries || !RETRYABLE.has((error as { code?: string }).code ?? '')) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * i));
    }
  }
}

export async function openStore(databaseUrl: string, options: OpenStoreOptions = {}): Promise<Store> {
  const connection = connect(databaseUrl, options);
  const { db } = connection;
  const dialect = dialectFor(connection.kind);
  try {
    await prepare(connection, dialect, options.seedDefaults ?? true);
  } catch (error) {
    await db.destroy();
    throw error;
  }

  const repos = repositories(db, dialect);
  const instruments: StoreInstruments = {};
  const onGroupCommitted = (requests: number, rows: number) => instruments.groupCommitted?.(requests, rows);
  const reader = connection.sqliteFile ? sqliteReader(connection.sqliteFile) : undefined;
  const cache = reader && connection.sqlite ? sqliteHotCache(connection.sqlite, reader, walProbe(connection.sqliteFile as string)) : undefined;
  if (cache) connection.onQueryBuilderWrite?.(cache.dropAll);
  const groupCommit = connection.sqlite ? sqliteGroupCommit(connection.sqlite, { onCommitted: cache?.committed, onGroupCommitted }) : undefined;
  const hot = connection.pool ? postgresHotPaths(connection.pool) : undefined;
  const pgGroupCommit = hot ? postgresGroupCommit(hot.insert, { onGroupCommitted }) : undefined;
  const pgPolled = hot && { lastMeasurement: coalesceReads(hot.lastMeasurement), actuator: coalesceReads(hot.actuator) };
  // Sensors seen once are remembered, so ingest checks skip the query. This process forgets the
  // ones it deletes; one deleted by another process shows as a missing reference on insert,
  // which forgets them all (see `ingest`).
  const knownSensors = new Set<number>();
  const removeAndForget = (remove: (tx: ReturnType<typeof removals>) => Promise<Removal>) =>
    withRetry(() => db.transaction().execute((trx) => remove(removals(trx, dialect)))).then((result) => {
      if (result.status === 'removed') for (const id of result.sensorIds) knownSensors.delete(id);
      return result;
    });
  const insert = (rows: readonly NewMeasurement[]) => (groupCommit ?? pgGroupCommit)?.insert(rows) ?? repos.measurements.insertMany(rows);
  const sensors = {
    ...repos.sensors,
    async existing(ids: readonly number[]): Promise<Set<number>> {
      const unknown = [...new Set(ids.filter((id) => !knownSensors.has(id)))];
      if (unknown.length > 0) {
        const found = reader ? unknown.filter((id) => reader.sensorExists(id)) : await repos.sensors.existing(unknown);
        for (const id of found) knownSensors.add(id);
      }
      return new Set(ids.filter((id) => knownSensors.has(id)));
    },
  };
  return {
    ...repos,
    sensors,
    ...(reader && {
      measurements: {
        ...repos.measurements,
        last: async (sensorId: number) => (cache ?? reader).lastMeasurement(sensorId),
        async *walkWindow(sensorId: number, window: TimeWindow) {
          let after: StoredMeasurement | undefined;
          for (;;) {
            const page = reader.windowPage(sensorId, after ? restAfter(window, after.timestamp) : window, after, ROWS_PER_PAGE);
            if (page.length > 0) yield page;
            if (page.length < ROWS_PER_PAGE) return;
            after = page[page.length - 1];
            // Let other requests run between pages of a long series.
            await new Promise((resolve) => setImmediate(resolve));
          }
        },
      },
      actuators: { ...repos.actuators, get: async (actuatorId: number) => (cache ?? reader).actuator(actuatorId) },
    }),
    dialect,
    db,
    ...(pgPolled && {
      measurements: { ...repos.measurements, last: pgPolled.lastMeasurement },
      actuators: { ...repos.actuators, get: pgPolled.actuator },
    }),
    polled: cache ?? pgPolled ?? { lastMeasurement: repos.measurements.last, actuator: repos.actuators.get },
    ingest: (rows) =>
      insert(rows).then(
        (stored) => {
          instruments.ingested?.(stored.length);
          return stored;
        },
        (error: unknown) => {
          if (isMissingReference(error)) knownSensors.clear();
          throw error;
        },
      ),
    instruments,
    ...(connection.pool && {
      poolUse: ((pool) => () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }))(connection.pool),
    }),
    transaction: (work) => withRetry(() => db.transaction().execute((trx) => work(repositories(trx, dialect)))),
    remove: {
      measurement: (measurementId) => removals(db, dialect).measurement(measurementId),
      actuator: (actuatorId) => removals(db, dialect).actuator(actuatorId),
      sensor: (sensorId, cascade) => removeAndForget((r) => r.sensor(sensorId, cascade)),
      prototype: (prototypeId, cascade) => removeAndForget((r) => r.prototype(prototypeId, cascade)),
    },
    async ping(timeoutMs = PING_TIMEOUT_MS) {
      // Its own short limit: a health check that waits for the statement limit answers too late to help.
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      });
      const answered = sql`select 1`.execute(db).then(
        () => true,
        () => false,
      );
      try {
        return await Promise.race([answered, late]);
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      reader?.close();
      await db.destroy();
    },
  };
}

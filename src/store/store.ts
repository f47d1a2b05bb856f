import type { Kysely } from 'kysely';
import type { Database, NewMeasurement, StoredActuator, StoredMeasurement } from './database.js';
import type { Dialect } from './dialect.js';
import type { Repositories } from './repositories/index.js';
import type { Removal } from './repositories/removals.js';
import type { ExposedPath } from './sqlite/file-permissions.js';

/** What every backend returns: the repositories, and the paths each backend serves its own way. */
export interface Store extends Repositories {
  dialect: Dialect;
  db: Kysely<Database>;
  /**
   * Records measurements (all or none), resolving once they are committed. Concurrent calls
   * share one commit (group commit) on both stores.
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
    /** The row removed, or undefined when there was none. */
    measurement(measurementId: number): Promise<StoredMeasurement | undefined>;
    actuator(actuatorId: number): Promise<boolean>;
    sensor(sensorId: number, cascade: boolean): Promise<Removal>;
    prototype(prototypeId: number, cascade: boolean): Promise<Removal>;
  };
  /**
   * The two reads devices poll, as directly as the store allows: from SQLite's in-memory copy
   * without a promise, from PostgreSQL through prepared statements.
   */
  polled: PolledReads;
  /**
   * Runs `work` unless another process on the same store is running work of that name, in which
   * case it answers undefined (PostgreSQL: an advisory lock; SQLite serves one process).
   */
  exclusively<T>(name: string, work: () => Promise<T>): Promise<T | undefined>;
  /** Hooks the app sets to observe the store (metrics); unset, they cost nothing. */
  instruments: StoreInstruments;
  /** PostgreSQL: the connection pool's use right now (SQLite has no pool). */
  poolUse?(): { total: number; idle: number; waiting: number };
  /** The store's files and folder that users other than the owner may read (none but SQLite's). */
  exposedFiles(): ExposedPath[];
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

export interface OpenStoreOptions {
  /** Where migrations report long work (building history buckets); by default nowhere. */
  log?: (details: object, message: string) => void;
  /** Create the default prototype on first start (default true). */
  seedDefaults?: boolean;
  /** SQLite: `full` makes every commit survive a power cut, at the cost of an fsync per commit. */
  sqliteSynchronous?: 'normal' | 'full';
  /** PostgreSQL: connections per process. */
  poolSize?: number;
  /** PostgreSQL: the longest a statement may run. */
  statementTimeoutMs?: number;
  /** PostgreSQL: how long to wait for a connection. */
  connectTimeoutMs?: number;
}

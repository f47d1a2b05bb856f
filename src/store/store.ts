import type { NewMeasurement, StoredActuator, StoredMeasurement } from './database.js';
import type { TimeWindow } from '../domain/time-window.js';
import type { StoreKind } from './dialect.js';
import type { Repositories } from './repositories/index.js';
import type { Removal } from './repositories/removals.js';
import type { BackupProgress, TableCounts } from './backup/types.js';
import type { ExposedPath } from './sqlite/file-permissions.js';

export type { StoreKind };

/**
 * What every backend returns: the repositories, and the paths each backend serves its own way.
 * No query builder, dialect or driver shows here: code outside src/store asks for what it needs
 * by name. The repositories' reads named in `FastPaths` are answered by each backend its own way
 * (see `storeRepositories`); a transaction's repositories answer them through the query builder.
 */
export interface Store extends Repositories {
  /** Which database the store is on, for logs. */
  kind: StoreKind;
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
  /**
   * PostgreSQL only: the upkeep of its day partitions and of the history buckets the rollup folds
   * (SQLite keeps one table and writes every bucket size at ingest: none).
   */
  upkeep?: StoreUpkeep;
  /**
   * PostgreSQL: generated series (one per sensor, in time order) loaded by COPY with their buckets
   * in one transaction, replacing every measurement when asked (or those of some sensors only); answers how many it removed.
   * SQLite has none: the service inserts the series in a transaction of its own.
   */
  loadSeries?(series: readonly GeneratedSeries[], replace: boolean | ReplaceSensors): Promise<number>;
  /**
   * One sensor's measurements in a window as the export's CSV lines: `head`, the value as
   * JavaScript writes it, a comma, the ISO timestamp, `tail`, CRLF; in time order. PostgreSQL:
   * written by the server (COPY); SQLite on a file: from pages of bare columns, no object per row.
   * A store in memory has none: the service writes the lines from pages of rows.
   */
  copyCsvLines?(sensorId: number, window: TimeWindow, head: string, tail: string): AsyncIterable<Buffer>;
  /**
   * SQLite on a file: a sensor's window as the JSON text of its measurements, the last read of the
   * sensor kept until anything is written to it. `cached` answers only from what is kept
   * (undefined: not kept, the sensor unchecked); `read` reads the window (the sensor must exist)
   * and keeps it, undefined when the window is too long to hold (stream it page by page).
   * PostgreSQL has none.
   */
  windowText?: {
    cached(sensorId: number, window: TimeWindow): string | undefined;
    read(sensorId: number, window: TimeWindow): string | undefined;
  };
  /** Hooks the app sets to observe the store (metrics); unset, they cost nothing. */
  instruments: StoreInstruments;
  /**
   * PostgreSQL only: a channel every process on the same database hears, so that several
   * instances behave as one (SQLite serves one process: none).
   */
  relay?: RelayChannel;
  /** PostgreSQL: the connection pool's use right now (SQLite has no pool). */
  poolUse?(): { total: number; idle: number; waiting: number };
  /** The store's files and folder that users other than the owner may read (none but SQLite's). */
  exposedFiles(): ExposedPath[];
  /**
   * Writes a consistent copy of the store to `dest`, a new SQLite file, while the store serves:
   * SQLite's online backup in small steps from one snapshot; PostgreSQL's rows through the copy
   * tool. Answers the row count per table that the copy must hold.
   */
  backupTo(dest: string, progress: BackupProgress): Promise<TableCounts>;
  /** True when the store answers a trivial query within `timeoutMs` (default one second). */
  ping(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

export type MaybePromise<T> = T | Promise<T>;

/** One sensor's generated rows, in time order. */
export interface GeneratedSeries {
  sensorId: number;
  timestamps: Float64Array;
  values: Float64Array;
}

/** What a partitioned store needs done in the background (docs/operations.md, "Partitions"). */
export interface StoreUpkeep {
  /** Makes the day partitions of the UTC day of `now` and the days ahead that are missing; answers the days made. */
  partitionsAhead(now: number): Promise<number[]>;
  /** One transaction of the rollup: folds up to a few thousand noted hours into their hourly and daily buckets; answers how many. */
  rollUp(): Promise<number>;
  /** Drops the day partitions wholly before `cutoff` (a UTC midnight); answers each with its rows and how long it took. */
  dropRawBefore(cutoff: number): Promise<{ name: string; day: number; rows: number; ms: number }[]>;
}

/**
 * The reads a backend answers its own way instead of through the store's query builder: each
 * backend names all of them in one object, and `storeRepositories` puts them in the repositories'
 * place (the repository member each one answers is named beside it).
 */
export interface FastPaths {
  /** `sensors.existing` */
  existingSensors(sensorIds: readonly number[]): Promise<Set<number>>;
  /** `measurements.last` */
  lastMeasurement(sensorId: number): Promise<StoredMeasurement | undefined>;
  /** `measurements.walkWindow` */
  walkWindow: Repositories['measurements']['walkWindow'];
  /** `actuators.get` */
  actuator(actuatorId: number): Promise<StoredActuator | undefined>;
  /** `history.bucketRows` */
  bucketRows: Repositories['history']['bucketRows'];
  /** `history.dayStamps` */
  dayStamps: Repositories['history']['dayStamps'];
}

/**
 * A channel every process on one database hears (PostgreSQL's LISTEN/NOTIFY). What travels on
 * it, and what a process does with what it hears, is its users' business: it carries strings.
 */
export interface RelayChannel {
  /**
   * Sends `payload` (at most about 8,000 bytes) to every process listening, this one included.
   * Payloads sent one after the other arrive in that order.
   */
  publish(payload: string): Promise<void>;
  /**
   * Listens on a connection of its own until the function it answers is called. A lost
   * connection is opened again (after a growing pause) and `restored` called: what was sent
   * meanwhile was missed. Rejects when the first connection cannot be opened.
   */
  listen(listener: RelayListener): Promise<() => Promise<void>>;
}

export interface RelayListener {
  /** A payload some process published. */
  message(payload: string): void;
  /** The listening connection failed; it is opened again. */
  failed(error: unknown): void;
  /** Opening it again failed; tried again later. */
  retryFailed(error: unknown): void;
  /** Listening again after the connection was lost: payloads sent meanwhile were missed. */
  restored(): void;
}

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
  /**
   * PostgreSQL: where the relay listens (`LISTEN` holds a session), when DATABASE_URL goes
   * through a pooler in transaction mode; default DATABASE_URL.
   */
  listenUrl?: string;
}

/** `replace` limited to these sensors' measurements and buckets (one tank's synthetic data). */
export interface ReplaceSensors {
  sensorIds: readonly number[];
}

import type { ColumnDefinitionBuilder, Kysely, RawBuilder, SelectQueryBuilder } from 'kysely';
import type { BucketLayout } from '../domain/buckets.js';
import type { Database, StoredMeasurement } from './database.js';

export type StoreKind = 'sqlite' | 'postgres';

/** Measurements of one sensor selected by a window, before the columns are chosen. */
export type MeasurementSelection = SelectQueryBuilder<Database, 'measurements', object>;

/** The column types a migration asks for, as each store spells them. */
export interface SchemaTypes {
  time: 'integer' | 'timestamptz';
  float: 'real' | 'double precision';
  bool: 'integer' | 'boolean';
  bytes: 'blob' | 'bytea';
  /** Measurement ids: a store outgrows 2^31 rows long before it outgrows a disk. */
  bigId: 'integer' | 'bigint';
  /** A key the store assigns and never hands out twice. */
  identity(column: ColumnDefinitionBuilder): ColumnDefinitionBuilder;
  /** A key the store assigns, as cheaply as it can (SQLite: the rowid). */
  rowKey(column: ColumnDefinitionBuilder): ColumnDefinitionBuilder;
}

/**
 * Everything that differs between the two stores, in values and in SQL. The repositories are
 * written once against this interface (as Kysely writes one query builder against its dialects);
 * each backend folder supplies one implementation.
 */
export interface Dialect {
  /** The store's name, for logs. */
  kind: StoreKind;
  schema: SchemaTypes;
  /** A timestamp (epoch ms) as the store's driver wants it bound. */
  time(ms: number): number | Date;
  /**
   * The same as `time`, typed as the column's read type (epoch ms) so it fits in comparisons;
   * on PostgreSQL it really is a Date bound against timestamptz.
   */
  at(ms: number): number;
  /** A boolean as the store's driver wants it bound. */
  bool(value: boolean): boolean | number;
  /** The SQL type a bound timestamp is cast to where the query builder cannot infer it. */
  timeType: RawBuilder<unknown>;
  /** The `timestamp` column as epoch milliseconds, the cheapest way the store can give them. */
  timestampMs(): RawBuilder<number>;
  /**
   * Inside a transaction, locks these rows in id order before a bulk update, so that concurrent
   * bulk updates queue instead of deadlocking. SQLite locks the whole store for a write
   * transaction already.
   */
  lockRows(db: Kysely<Database>, table: 'sensors' | 'actuators', ids: readonly number[]): Promise<void>;
  /** The rows `query` selects, locked against writers until the transaction ends (`for update`). */
  forUpdate<TB extends keyof Database, O>(query: SelectQueryBuilder<Database, TB, O>): SelectQueryBuilder<Database, TB, O>;
  /**
   * The rows `query` selects, kept from being deleted (or their keys changed) until the transaction
   * ends (`for key share`): what a write that refers to them takes first, so that it queues behind
   * a delete that locked them (`forUpdate`) instead of deadlocking with it.
   */
  forKeyShare<TB extends keyof Database, O>(query: SelectQueryBuilder<Database, TB, O>): SelectQueryBuilder<Database, TB, O>;
  /**
   * As `forUpdate`, leaving out the rows another transaction has locked (`skip locked`): work
   * that one process may do for all (a time-driven check) is skipped where another is doing it.
   * SQLite serves one process, whose transactions take turns: nothing to skip.
   */
  forUpdateSkipLocked<TB extends keyof Database, O>(query: SelectQueryBuilder<Database, TB, O>): SelectQueryBuilder<Database, TB, O>;
  /**
   * Runs `work` holding a lock on the whole table against other writers of it (PostgreSQL reads
   * a snapshot per statement; SQLite runs every statement under its single write lock).
   */
  lockingTable<T>(db: Kysely<Database>, table: 'users', work: (db: Kysely<Database>) => Promise<T>): Promise<T>;
  /**
   * The lowest and the highest measurement of each bucket of `layout` among `selection`, in time
   * order (ties by id).
   */
  extremesPerBucket(db: Kysely<Database>, selection: MeasurementSelection, layout: BucketLayout): Promise<StoredMeasurement[]>;
  /** Inserts a generated series of one sensor as fast as the store takes it (no ids returned). */
  insertSeries(db: Kysely<Database>, sensorId: number, timestamps: Float64Array, values: Float64Array): Promise<void>;
  /** Refreshes the planner's statistics of a table after a bulk load, where the store needs it. */
  analyze(db: Kysely<Database>, table: keyof Database): Promise<void>;
  /** After rows were copied in with their ids: the store's next assigned id follows the largest. */
  continueIdentity(db: Kysely<Database>, table: keyof Database, column: string): Promise<void>;
}

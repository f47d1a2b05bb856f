import { openPostgresStore } from './postgres/index.js';
import { openSqliteStore } from './sqlite/index.js';
import type { OpenStoreOptions, Store } from './store.js';

export type { NewMeasurement, StoredActuator, StoredMeasurement } from './database.js';
export type { Repositories } from './repositories/index.js';
export type { MaybePromise, OpenStoreOptions, PolledReads, Store } from './store.js';

/** Opens the store a URL names: `sqlite:<file>` (or `sqlite::memory:`), or `postgres://…`. */
export function openStore(databaseUrl: string, options: OpenStoreOptions = {}): Promise<Store> {
  return databaseUrl.startsWith('sqlite:') ? openSqliteStore(databaseUrl, options) : openPostgresStore(databaseUrl, options);
}

import type { OpenStoreOptions, Store } from './store.js';

// The store's public face: everything outside src/store imports from here only (see
// test/architecture/layers.test.ts), so no query builder, dialect or driver leaves the folder.
export type {
  NewDecision,
  NewMeasurement,
  StoredActivation,
  StoredActuator,
  StoredAlert,
  StoredDecision,
  StoredDeviceToken,
  StoredInterlock,
  StoredMeasurement,
  StoredNotification,
  StoredRefill,
  StoredUser,
} from './database.js';
export type { Repositories } from './repositories/index.js';
export type { AlertRepository, AlertRow } from './repositories/alerts.js';
export type { Removal } from './repositories/removals.js';
export type { ChannelFields, FollowedAlert, NotificationProgress, StoredChannel } from './repositories/notifications.js';
export type { SettingRepository } from './repositories/settings.js';
export type { MaybePromise, OpenStoreOptions, PolledReads, RelayChannel, RelayListener, Store, StoreKind } from './store.js';
export { isDiskFull, isMissingReference, isStoreUnavailable, storeDiskOf } from './errors.js';
export { clear as emptyStore, copyStore, rowCounts } from './copy.js';
export type { BackupProgress, TableCounts } from './backup/types.js';
export { checkSqliteCopy, type CopyCheck } from './backup/sqlite-file.js';
export { restoreSqliteStore, type RestoreResult } from './backup/restore.js';
export { realPathOf, sqliteFileOf } from './backup/paths.js';
export { fsyncPath } from './fsync.js';

/**
 * Opens the store a URL names: `sqlite:<file>` (or `sqlite::memory:`), or `postgres://…`. Each
 * backend is imported only when named, so a SQLite service never loads the PostgreSQL driver (pg
 * alone pulls in Node's fetch and compiles its HTTP parser: several MB of a small board's memory).
 */
export async function openStore(databaseUrl: string, options: OpenStoreOptions = {}): Promise<Store> {
  if (databaseUrl.startsWith('sqlite:')) return (await import('./sqlite/index.js')).openSqliteStore(databaseUrl, options);
  return (await import('./postgres/index.js')).openPostgresStore(databaseUrl, options);
}

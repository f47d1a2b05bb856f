import type SQLite from 'better-sqlite3';
import type { StoredActuator, StoredMeasurement } from '../database.js';
import type { SqliteReader } from './reader.js';
import type { WalProbe } from './wal-probe.js';

/** Entries kept per map at most: ids nobody has (404s) must not grow it without bound. */
const MAX_ENTRIES = 10_000;

/**
 * The newest measurement per sensor and the actuator rows, as last committed, kept in memory:
 * pump controllers and dashboards poll them far more often than they change.
 *
 * What this process writes is never missed:
 * - Measurements committed through the group commit update their sensor's entry (`committed`),
 *   so steady ingest does not empty the cache.
 * - Any other statement the query builder runs that may write drops everything (`dropAll`),
 *   after it has run, so a transaction's commit drops what was read while it was open.
 * - While the writing connection has a transaction open, its snapshot cannot see other commits,
 *   so reads then bypass the cache.
 *
 * What other programs commit to the file (the sqlite3 tool, a script) is seen from the next turn
 * of the event loop: the first read of each turn checks the writing connection's
 * `PRAGMA data_version`, which moves with every commit of another connection, and the reads of
 * the same turn share that check. HTTP requests handled in a turn were sent before it began, so
 * none of them is answered from a state older than its own arrival. While nothing at all has
 * been committed, the WAL-index header reads the same (`probe`): one read instead of the check's
 * two locks and a stat.
 */
export function sqliteHotCache(writer: SQLite.Database, reader: SqliteReader, probe?: WalProbe) {
  const dataVersion = writer.prepare('pragma data_version').pluck();
  let seenVersion = dataVersion.get();
  /** null: known to have none (no measurement yet, no such actuator). */
  const newest = new Map<number, StoredMeasurement | null>();
  const actuators = new Map<number, StoredActuator | null>();

  const dropListeners: (() => void)[] = [];
  function dropAll(): void {
    newest.clear();
    actuators.clear();
    for (const listener of dropListeners) listener();
  }

  /** Checked already in this turn of the event loop (reset when the turn ends). */
  let checked = false;
  const uncheck = () => {
    checked = false;
  };

  /** False when the cache cannot be trusted for this read; drops it when another connection committed. */
  function usable(): boolean {
    if (writer.inTransaction) return false;
    if (checked) return true;
    checked = true;
    setImmediate(uncheck);
    if (probe?.unchanged()) return true;
    // The header was read before this check, so a commit after the check still shows next time.
    const version = dataVersion.get();
    if (version !== seenVersion) {
      seenVersion = version;
      dropAll();
    }
    probe?.markSeen();
    return true;
  }

  function remember<T>(map: Map<number, T | null>, id: number, value: T | undefined): T | undefined {
    if (map.size >= MAX_ENTRIES) map.clear();
    map.set(id, value ?? null);
    return value;
  }

  return {
    lastMeasurement(sensorId: number): StoredMeasurement | undefined {
      if (!usable()) return reader.lastMeasurement(sensorId);
      const cached = newest.get(sensorId);
      if (cached !== undefined) return cached ?? undefined;
      return remember(newest, sensorId, reader.lastMeasurement(sensorId));
    },

    actuator(actuatorId: number): StoredActuator | undefined {
      if (!usable()) return reader.actuator(actuatorId);
      const cached = actuators.get(actuatorId);
      if (cached !== undefined) return cached ?? undefined;
      return remember(actuators, actuatorId, reader.actuator(actuatorId));
    },

    /** Measurements this process has just committed: each sensor's entry keeps the newest (timestamp, then id). */
    committed(rows: readonly StoredMeasurement[]): void {
      for (const row of rows) {
        const cached = newest.get(row.sensor_id);
        if (cached === undefined) continue;
        if (
          cached === null ||
          row.timestamp > cached.timestamp ||
          (row.timestamp === cached.timestamp && row.measurement_id > cached.measurement_id)
        ) {
          newest.set(row.sensor_id, row);
        }
      }
    },

    dropAll,

    /** For what else is kept from the store on the same terms (window-text.ts). */
    usable,
    onDropAll(listener: () => void): void {
      dropListeners.push(listener);
    },
  };
}

export type SqliteHotCache = ReturnType<typeof sqliteHotCache>;

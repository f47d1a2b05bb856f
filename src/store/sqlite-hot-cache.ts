import type SQLite from 'better-sqlite3';
import type { StoredActuator } from './actuators.js';
import type { StoredMeasurement } from './measurements.js';
import type { SqliteReader } from './sqlite-reader.js';

/** Entries kept per map at most: ids nobody has (404s) must not grow it without bound. */
const MAX_ENTRIES = 10_000;

/**
 * The newest measurement per sensor and the actuator rows, as last committed, kept in memory:
 * pump controllers and dashboards poll them far more often than they change.
 *
 * Exact, not "fresh enough": every copy is dropped or brought up to date before a read can see
 * it out of date.
 * - Measurements this process commits through the group commit update their sensor's entry
 *   (`committed`), so steady ingest does not empty the cache.
 * - Any other statement the query builder runs that may write drops everything (`dropAll`),
 *   after it has run, so a transaction's commit drops what was read while it was open.
 * - Commits by other connections or processes (the sqlite3 tool, another program) change the
 *   writing connection's `PRAGMA data_version`, which every read checks first: a cheap check,
 *   a fraction of the query it saves.
 * - While the writing connection has a transaction open, its snapshot cannot see other commits,
 *   so reads then bypass the cache.
 */
export function sqliteHotCache(writer: SQLite.Database, reader: SqliteReader) {
  const dataVersion = writer.prepare('pragma data_version').pluck();
  let seenVersion = dataVersion.get();
  /** null: known to have none (no measurement yet, no such actuator). */
  const newest = new Map<number, StoredMeasurement | null>();
  const actuators = new Map<number, StoredActuator | null>();

  function dropAll(): void {
    newest.clear();
    actuators.clear();
  }

  /** False when the cache cannot be trusted for this read; drops it when another connection committed. */
  function usable(): boolean {
    if (writer.inTransaction) return false;
    const version = dataVersion.get();
    if (version !== seenVersion) {
      seenVersion = version;
      dropAll();
    }
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
        if (cached === null || row.timestamp > cached.timestamp || (row.timestamp === cached.timestamp && row.measurement_id > cached.measurement_id)) {
          newest.set(row.sensor_id, row);
        }
      }
    },

    dropAll,
  };
}

export type SqliteHotCache = ReturnType<typeof sqliteHotCache>;

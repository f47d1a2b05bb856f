import { type Kysely, Migrator, sql } from 'kysely';
import type { Database } from './database.js';
import type { Dialect } from './dialect.js';
import type { MigrationLog } from './migrations/010_history_buckets.js';
import { migrationProvider } from './migrations/index.js';
import type { SensorRepository } from './repositories/sensors.js';
import { seedDefaults } from './seed-defaults.js';

/** Migrations, then default data when asked for: once per store, before it serves anything. */
export async function prepare(db: Kysely<Database>, dialect: Dialect, seed: boolean, log: MigrationLog = () => {}): Promise<void> {
  const { error } = await new Migrator({ db, provider: migrationProvider(dialect, log) }).migrateToLatest();
  if (error) throw error;
  if (seed) await seedDefaults(db, dialect);
}

/** True when the store answers a trivial query. */
export async function ping(db: Kysely<Database>): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}

/**
 * The sensors repository with an `existing` that remembers: sensors are never deleted, so a
 * sensor seen once exists for good and ingest checks skip the query. `lookUp` finds which of
 * some ids exist, the cheapest way the backend can.
 */
export function rememberingSensors(sensors: SensorRepository, lookUp: (ids: number[]) => number[] | Promise<Set<number>>): SensorRepository {
  const known = new Set<number>();
  return {
    ...sensors,
    async existing(ids: readonly number[]): Promise<Set<number>> {
      const unknown = [...new Set(ids.filter((id) => !known.has(id)))];
      if (unknown.length > 0) {
        for (const id of await lookUp(unknown)) known.add(id);
      }
      return new Set(ids.filter((id) => known.has(id)));
    },
  };
}

import { type Kysely, Migrator, sql } from 'kysely';
import type { Database, NewMeasurement, StoredMeasurement } from './database.js';
import type { Dialect } from './dialect.js';
import { isMissingReference } from './errors.js';
import type { MigrationLog } from './migrations/010_history_buckets.js';
import { migrationProvider } from './migrations/index.js';
import { type Removal, removals } from './repositories/removals.js';
import type { Repositories } from './repositories/index.js';
import { seedDefaults } from './seed-defaults.js';
import type { FastPaths, Store, StoreInstruments } from './store.js';

/** How long /healthz waits for the store to answer `select 1`. */
const PING_TIMEOUT_MS = 1000;

/**
 * Names in the order of their UTF-16 code units, the order the migrator sorts the migrations it
 * knows in. (Its default for those already run, `localeCompare`, builds an Intl collator: megabytes
 * of ICU data a small board would keep resident for names that are ASCII.)
 */
const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Migrations, then default data when asked for: once per store, before it serves anything.
 * `migrationsUnder` wraps the migrations where the backend needs more than the migrator does.
 */
export async function prepare(
  db: Kysely<Database>,
  dialect: Dialect,
  seed: boolean,
  log: MigrationLog = () => {},
  migrationsUnder: (migrate: () => Promise<void>) => Promise<void> = (migrate) => migrate(),
  migrationDb: Kysely<Database> = db,
): Promise<void> {
  await migrationsUnder(async () => {
    const { error } = await new Migrator({
      db: migrationDb,
      provider: migrationProvider(dialect, log),
      nameComparator: byCodeUnits,
    }).migrateToLatest();
    if (error) throw error;
  });
  if (seed) await seedDefaults(db, dialect);
}

/** True when the store answers a trivial query within `timeoutMs`. */
export async function ping(db: Kysely<Database>, timeoutMs = PING_TIMEOUT_MS): Promise<boolean> {
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
}

/**
 * The sensors that exist, remembered: ingest checks skip the query for a sensor seen once. This
 * process forgets the ones it deletes; one deleted by another process shows as a missing
 * reference on insert, which forgets them all (see `ingestion`). `lookUp` finds which of some ids
 * exist, the cheapest way the backend can.
 */
export function knownSensors(lookUp: (ids: number[]) => number[] | Promise<Set<number>>) {
  const known = new Set<number>();
  return {
    /** The store's `sensors.existing`. */
    async existing(ids: readonly number[]): Promise<Set<number>> {
      // A batch names a few sensors many times over: no array or set per id.
      let unknown: Set<number> | undefined;
      for (const id of ids) if (!known.has(id)) (unknown ??= new Set()).add(id);
      if (unknown) {
        for (const id of await lookUp([...unknown])) known.add(id);
      }
      const found = new Set<number>();
      for (const id of ids) if (known.has(id)) found.add(id);
      return found;
    },
    forget(ids: readonly number[]): void {
      for (const id of ids) known.delete(id);
    },
    forgetAll(): void {
      known.clear();
    },
  };
}

export type KnownSensors = ReturnType<typeof knownSensors>;

/**
 * The store's repositories: the query builder's (`repos`), but for the reads each backend answers
 * its own way (`fast`), every one of which is named here. A repository added to `Repositories`
 * must be added here too (the compiler says so).
 */
export function storeRepositories(repos: Repositories, fast: FastPaths): Repositories {
  return {
    prototypes: repos.prototypes,
    settings: repos.settings,
    users: repos.users,
    deviceTokens: repos.deviceTokens,
    pictures: repos.pictures,
    alerts: repos.alerts,
    interlocks: repos.interlocks,
    activations: repos.activations,
    refills: repos.refills,
    calibrations: repos.calibrations,
    notes: repos.notes,
    safetyEvents: repos.safetyEvents,
    notifications: repos.notifications,
    decisions: repos.decisions,
    settingsChanges: repos.settingsChanges,
    sensors: { ...repos.sensors, existing: fast.existingSensors },
    measurements: { ...repos.measurements, last: fast.lastMeasurement, walkWindow: fast.walkWindow },
    actuators: { ...repos.actuators, get: fast.actuator },
    history: { ...repos.history, bucketRows: fast.bucketRows, dayStamps: fast.dayStamps },
  };
}

/** The store's `ingest` around a backend's group commit: counted for the metrics, and a missing sensor forgotten. */
export function ingestion(
  insert: (rows: readonly NewMeasurement[]) => Promise<StoredMeasurement[]>,
  instruments: StoreInstruments,
  known: KnownSensors,
): Store['ingest'] {
  return (rows) =>
    insert(rows).then(
      (stored) => {
        instruments.ingested?.(stored.length);
        return stored;
      },
      (error: unknown) => {
        if (isMissingReference(error)) known.forgetAll();
        throw error;
      },
    );
}

/**
 * The store's deletes, each one transaction (`inTransaction` is the backend's, with its retries);
 * the sensors a delete removes are forgotten.
 */
export function removalsOf(
  db: Kysely<Database>,
  dialect: Dialect,
  inTransaction: <T>(work: (trx: Kysely<Database>) => Promise<T>) => Promise<T>,
  known: KnownSensors,
): Store['remove'] {
  const removeAndForget = async (remove: (tx: ReturnType<typeof removals>) => Promise<Removal>) => {
    const result = await inTransaction((trx) => remove(removals(trx, dialect)));
    if (result.status === 'removed') known.forget(result.sensorIds);
    return result;
  };
  return {
    measurement: (measurementId) => inTransaction((trx) => removals(trx, dialect).measurement(measurementId)),
    actuator: (actuatorId) => removals(db, dialect).actuator(actuatorId),
    sensor: (sensorId, cascade) => removeAndForget((r) => r.sensor(sensorId, cascade)),
    prototype: (prototypeId, cascade) => removeAndForget((r) => r.prototype(prototypeId, cascade)),
  };
}

import { type Kysely, Migrator, sql } from 'kysely';
import { connect, type PostgresOptions } from './connect.js';
import type { Database } from './database.js';
import { type Dialect, dialectFor } from './dialect.js';
import { actuatorRepository } from './actuators.js';
import { pictureRepository } from './pictures.js';
import { userRepository } from './users.js';
import { measurementRepository } from './measurements.js';
import { migrationProvider } from './migrations/index.js';
import { prototypeRepository } from './prototypes.js';
import { seedDefaults } from './seed-defaults.js';
import { sensorRepository } from './sensors.js';
import { settingRepository } from './settings.js';
import type { NewMeasurement, StoredMeasurement } from './measurements.js';
import { sqliteGroupCommit } from './sqlite-group-commit.js';

/** Every repository, bound either to the store or to one transaction. */
function repositories(db: Kysely<Database>, dialect: Dialect) {
  return {
    prototypes: prototypeRepository(db),
    sensors: sensorRepository(db),
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
  /** Runs `work` in one transaction: everything it writes commits together or not at all. */
  transaction<T>(work: (tx: Repositories) => Promise<T>): Promise<T>;
  /** True when the store answers a trivial query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface OpenStoreOptions extends PostgresOptions {
  seedDefaults?: boolean;
}

export async function openStore(databaseUrl: string, options: OpenStoreOptions = {}): Promise<Store> {
  const connection = connect(databaseUrl, options);
  const { db } = connection;
  const dialect = dialectFor(connection.kind);
  try {
    const { error } = await new Migrator({ db, provider: migrationProvider(connection.kind) }).migrateToLatest();
    if (error) throw error;
    if (options.seedDefaults ?? true) await seedDefaults(db, dialect);
  } catch (error) {
    await db.destroy();
    throw error;
  }

  const repos = repositories(db, dialect);
  const groupCommit = connection.sqlite ? sqliteGroupCommit(connection.sqlite) : undefined;
  return {
    ...repos,
    ingest: (rows) => (groupCommit ? groupCommit.insert(rows) : repos.measurements.insertMany(rows)),
    dialect,
    db,
    transaction: (work) => db.transaction().execute((trx) => work(repositories(trx, dialect))),
    async ping() {
      try {
        await sql`select 1`.execute(db);
        return true;
      } catch {
        return false;
      }
    },
    close: () => db.destroy(),
  };
}

import type { Migration, MigrationProvider } from 'kysely';
import type { Dialect } from '../dialect.js';
import { coreMigration } from './001_core.js';
import { tokenGenerationMigration } from './002_token_generation.js';
import { historyBucketsMigration, type MigrationLog } from './010_history_buckets.js';

/** Migrations are code, not files found at run time, so the built service carries them. Names sort in order. */
export function migrationProvider(dialect: Dialect, log: MigrationLog): MigrationProvider {
  const migrations: Record<string, Migration> = {
    '001_core': coreMigration(dialect.schema),
    '002_token_generation': tokenGenerationMigration(),
    '010_history_buckets': historyBucketsMigration(dialect, log),
  };
  return { getMigrations: async () => migrations };
}

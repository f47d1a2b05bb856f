import type { Migration, MigrationProvider } from 'kysely';
import type { StoreKind } from '../dialect.js';
import { coreMigration } from './001_core.js';
import { tokenGenerationMigration } from './002_token_generation.js';
import { finiteNumbersMigration } from './003_finite_numbers.js';
import { noNulMigration } from './004_no_nul.js';

/** Migrations are code, not files found at run time, so the built service carries them. Names sort in order. */
export function migrationProvider(kind: StoreKind): MigrationProvider {
  const migrations: Record<string, Migration> = {
    '001_core': coreMigration(kind),
    '002_token_generation': tokenGenerationMigration(),
    '003_finite_numbers': finiteNumbersMigration(kind),
    '004_no_nul': noNulMigration(kind),
  };
  return { getMigrations: async () => migrations };
}

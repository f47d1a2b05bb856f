import type { Migration, MigrationProvider } from 'kysely';
import type { SchemaTypes } from '../dialect.js';
import { coreMigration } from './001_core.js';
import { tokenGenerationMigration } from './002_token_generation.js';

/** Migrations are code, not files found at run time, so the built service carries them. Names sort in order. */
export function migrationProvider(types: SchemaTypes): MigrationProvider {
  const migrations: Record<string, Migration> = {
    '001_core': coreMigration(types),
    '002_token_generation': tokenGenerationMigration(),
  };
  return { getMigrations: async () => migrations };
}

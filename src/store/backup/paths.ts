import { resolve } from 'node:path';

/** The file of a `sqlite:<file>` URL; undefined for PostgreSQL or a store in memory. */
export function sqliteFileOf(databaseUrl: string): string | undefined {
  if (!databaseUrl.startsWith('sqlite:') || databaseUrl === 'sqlite::memory:') return undefined;
  return resolve(databaseUrl.replace(/^sqlite:(\/\/)?/, ''));
}

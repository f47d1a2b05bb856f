import { realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/**
 * A path with its symbolic links resolved: the file's own real path when it exists, else its
 * folder's real path and its name (a store about to be made), else the path as given.
 */
export function realPathOf(path: string): string {
  const absolute = resolve(path);
  try {
    return realpathSync(absolute);
  } catch {
    try {
      return join(realpathSync(dirname(absolute)), basename(absolute));
    } catch {
      return absolute;
    }
  }
}

/**
 * The real file of a `sqlite:<file>` URL (symbolic links resolved, so every process names the same
 * store and its lock the same way); undefined for PostgreSQL or a store in memory.
 */
export function sqliteFileOf(databaseUrl: string): string | undefined {
  if (!databaseUrl.startsWith('sqlite:') || databaseUrl === 'sqlite::memory:') return undefined;
  return realPathOf(databaseUrl.replace(/^sqlite:(\/\/)?/, ''));
}

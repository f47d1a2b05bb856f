import { closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The SQLite file holds the token secret and the password hashes: it is made readable by its
 * owner only. SQLite creates the WAL and shared-memory files with the database file's mode, so
 * creating that file 0600 before SQLite opens it covers all three.
 */
export function createPrivateStoreFile(file: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600));
}

export interface ExposedPath {
  path: string;
  /** The permission bits, as octal text (`0644`). */
  mode: string;
}

/** The store's folder and files (database, WAL, shared memory) that others than the owner may read. */
export function exposedStoreFiles(file: string): ExposedPath[] {
  const exposed: ExposedPath[] = [];
  for (const path of [dirname(file), file, `${file}-wal`, `${file}-shm`]) {
    let mode: number;
    try {
      mode = statSync(path).mode & 0o777;
    } catch {
      continue;
    }
    if ((mode & 0o044) !== 0) exposed.push({ path, mode: `0${mode.toString(8)}` });
  }
  return exposed;
}

import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beyondKeep, isPartial, timeOfBackup } from './names.js';

export interface GoodBackup {
  file: string;
  at: number;
  bytes: number;
}

/** Makes the folder (owner only: a backup holds password hashes and the token secret). */
export function ensureFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/** The good backups of the folder, newest first (none when the folder is missing). */
export function goodBackups(dir: string): GoodBackup[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .flatMap((name) => {
      const at = timeOfBackup(name);
      if (at === undefined) return [];
      try {
        return [{ file: join(dir, name), at, bytes: statSync(join(dir, name)).size }];
      } catch {
        return [];
      }
    })
    .sort((a, b) => b.at - a.at);
}

/** Removes what a backup interrupted (a crash, a power cut) left: only `.sensorhub-….partial` names. */
export function removePartials(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const stale = names.filter(isPartial);
  for (const name of stale) rmSync(join(dir, name), { force: true });
  return stale;
}

/** Deletes the oldest good backups beyond `keep`; answers the names deleted. */
export function prune(dir: string, keep: number): string[] {
  const doomed = beyondKeep(readdirSync(dir), keep);
  for (const name of doomed) rmSync(join(dir, name), { force: true });
  return doomed;
}

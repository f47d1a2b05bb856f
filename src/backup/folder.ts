import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beyondKeep, isPartial, pidOfPartial, timeOfBackup } from './names.js';

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

/** Whether a process of this id runs (on this machine). */
function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes what an interrupted backup (a crash, a power cut, a killed `sensorhub backup FILE`) left:
 * only `.sensorhub-….partial` names, and only those of a process that no longer runs, so a
 * backup another process is writing into the same folder goes on. `ownIsStale`: this process
 * writes none at the moment, so its own are leftovers too. Never a file of the store (`isStore`).
 */
export function removePartials(dir: string, options: { isStore?: (path: string) => boolean; ownIsStale?: boolean } = {}): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const stale = names.filter((name) => {
    if (!isPartial(name) || options.isStore?.(join(dir, name))) return false;
    const pid = pidOfPartial(name);
    if (pid === process.pid) return options.ownIsStale ?? false;
    return pid === undefined || !isRunning(pid);
  });
  for (const name of stale) rmSync(join(dir, name), { force: true });
  return stale;
}

/**
 * Deletes the oldest good backups beyond `keep`; answers the names deleted. A name that is (or
 * links to) a file of the store (`isStore`) is never deleted, nor counted as a backup.
 */
export function prune(dir: string, keep: number, isStore: (path: string) => boolean = () => false): string[] {
  const names = readdirSync(dir).filter((name) => !isStore(join(dir, name)));
  const doomed = beyondKeep(names, keep);
  for (const name of doomed) rmSync(join(dir, name), { force: true });
  return doomed;
}

import { chmodSync, closeSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type BackupProgress, checkSqliteCopy, fsyncPath, type Store, type TableCounts } from '../store/index.js';
import { ensureFolder, removePartials } from './folder.js';
import { backupName, partialName } from './names.js';

export interface MadeBackup {
  file: string;
  at: number;
  bytes: number;
  counts: TableCounts;
}

/** A backup that was written but did not pass its check. */
export class BackupCheckFailed extends Error {
  constructor(readonly problems: string[]) {
    super(`the copy failed its check: ${problems.join('; ')}`);
    this.name = 'BackupCheckFailed';
  }
}

/**
 * One checked backup: the store's copy is written under a hidden temporary name beside its final
 * one, read back (integrity, and the row counts of the snapshot it was taken from), flushed, then
 * renamed into place and the folder flushed. A crash at any point leaves at most a `.partial`
 * file, never a half file under a good name, and that is removed by the next backup into the same
 * folder. `file` defaults to `sensorhub-<stamp>.db` in `dir`. The copy is the owner's alone (0600,
 * whatever the umask): it holds password hashes and the token secret.
 */
export async function makeBackup(
  store: Store,
  target: { dir: string } | { file: string },
  now: number,
  progress: BackupProgress,
): Promise<MadeBackup> {
  const file = 'file' in target ? target.file : join(target.dir, backupName(now));
  const dir = dirname(file);
  ensureFolder(dir);
  // One backup at a time per process: any earlier .partial of this process is a leftover too.
  removePartials(dir, { ownIsStale: true });
  const partial = join(dir, partialName(now, process.pid));
  try {
    // Made empty and owner-only before the copy is written into it; the mode is set again below,
    // as a umask only takes bits away and the copy's writer may make the file anew.
    rmSync(partial, { force: true });
    closeSync(openSync(partial, 'wx', 0o600));
    const counts = await store.backupTo(partial, progress);
    const check = await checkSqliteCopy(partial, counts);
    if (!check.ok) throw new BackupCheckFailed(check.problems);
    chmodSync(partial, 0o600);
    fsyncPath(partial);
    renameSync(partial, file);
    fsyncPath(dir);
    return { file, at: now, bytes: statSync(file).size, counts: check.counts };
  } finally {
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(partial + suffix, { force: true });
  }
}

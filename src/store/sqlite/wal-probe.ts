import { openSync, readSync } from 'node:fs';

/** The WAL-index header: the first 48 bytes of the `-shm` file, rewritten (its change counter moved on) by every commit. */
const HEADER_BYTES = 48;

export interface WalProbe {
  /** True when no connection has committed since `markSeen`: the header still reads the same. */
  unchanged(): boolean;
  /** The header read by the last `unchanged()` is now the one to compare with. */
  markSeen(): void;
}

/**
 * A one-read answer to "has anyone committed to this WAL-mode SQLite file since last time?",
 * for the hot-read cache: it spares the full `PRAGMA data_version` check (two locks and a stat
 * on every poll) while nothing changes. Any difference, including this process's own commits,
 * only sends the cache to that full check, so the probe can make a read slower, never wrong.
 *
 * Its descriptor is never closed: closing any descriptor of a file drops every POSIX lock this
 * process holds on it, SQLite's own locks on the shared-memory file included. One stays open
 * per store opened, until the process exits.
 */
export function walProbe(databaseFile: string): WalProbe | undefined {
  let fd: number;
  try {
    fd = openSync(`${databaseFile}-shm`, 'r');
  } catch {
    return undefined;
  }
  const current = Buffer.alloc(HEADER_BYTES);
  const seen = Buffer.alloc(HEADER_BYTES);
  let haveSeen = false;
  return {
    unchanged() {
      const read = readSync(fd, current, 0, HEADER_BYTES, 0);
      return haveSeen && read === HEADER_BYTES && current.equals(seen);
    },
    markSeen() {
      current.copy(seen);
      haveSeen = true;
    },
  };
}

import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmdirSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A file system of its own, a few MiB, that a test can fill to the last byte. */
export interface SmallDisk {
  dir: string;
  /** Writes a filler file until the file system refuses (ENOSPC): not a byte is left. */
  fill(): void;
  /** Deletes the filler: the space is back. */
  free(): void;
  /** Bytes left for an ordinary user of the file system. */
  available(): number;
  /** Unmounts it and removes its mount point (the processes using it must be stopped first). */
  remove(): void;
}

/**
 * Mounts a tmpfs of `sizeMiB` on a fresh folder (the tests run as root). A test that needs one
 * fails, with the reason, where mounting is not allowed: it is never skipped.
 */
export function mountSmallDisk(sizeMiB = 4): SmallDisk {
  const dir = mkdtempSync(join(tmpdir(), 'sensorhub-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMiB}m,mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    rmdirSync(dir);
    const why = (error as { stderr?: Buffer }).stderr?.toString().trim() || String(error);
    throw new Error(
      `This test fills a small disk of its own and needs to mount a ${sizeMiB} MiB tmpfs, which failed (${why}). ` +
        'Run the tests as root (or with CAP_SYS_ADMIN) on a machine that allows mounting tmpfs.',
      { cause: error },
    );
  }
  const filler = join(dir, 'filler');
  return {
    dir,
    fill() {
      const fd = openSync(filler, 'a');
      try {
        // Large writes first, then ever smaller ones to take the last partial block.
        for (const size of [1 << 20, 1 << 16, 4096, 512, 1]) {
          const chunk = Buffer.alloc(size);
          try {
            for (;;) writeSync(fd, chunk);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
          }
        }
      } finally {
        closeSync(fd);
      }
    },
    free() {
      rmSync(filler, { force: true });
    },
    available() {
      const stats = statfsSync(dir);
      return stats.bavail * stats.bsize;
    },
    remove() {
      try {
        execFileSync('umount', [dir], { stdio: 'pipe' });
      } catch {
        // Still busy (a process the test could not stop): detached now, gone once it is let go.
        execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
      }
      rmdirSync(dir);
    },
  };
}

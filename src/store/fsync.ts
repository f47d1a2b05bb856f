import { closeSync, fsyncSync, openSync } from 'node:fs';

/**
 * Flushes a file's contents, or a folder's entries, to the disk: a file written and then renamed
 * into place is durable once both the file and its folder have been flushed.
 */
export function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

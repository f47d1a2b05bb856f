import type { Stats } from 'node:fs';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { CameraUnavailable, MAX_PICTURE_BYTES } from './errors.js';

/**
 * O_NONBLOCK: opening a FIFO or a device must not wait for a writer (it would hold a pool thread
 * for ever); regular files read as usual with it. O_NOFOLLOW where the caller has already decided
 * what the path is, so a file swapped for a symlink in between is refused.
 */
const READ = constants.O_RDONLY | constants.O_NONBLOCK;

/**
 * The bytes of a regular file that `checked` (an lstat or stat taken just before) described. The
 * file opened must still be that regular file (fstat: same device and inode), so nothing swapped
 * in between the check and the open — a FIFO, a symlink, another file — is read.
 */
export async function readRegularFile(path: string, checked: Stats, options: { followLinks: boolean }): Promise<Buffer> {
  if (!checked.isFile()) throw new CameraUnavailable(`${path} is not a regular file`);
  if (checked.size > MAX_PICTURE_BYTES) throw new CameraUnavailable(`${path} is larger than ${MAX_PICTURE_BYTES} bytes`);
  const handle = await open(path, options.followLinks ? READ : READ | constants.O_NOFOLLOW);
  try {
    const opened = await handle.stat();
    if (!opened.isFile() || opened.dev !== checked.dev || opened.ino !== checked.ino) {
      throw new CameraUnavailable(`${path} changed while it was opened`);
    }
    if (opened.size > MAX_PICTURE_BYTES) throw new CameraUnavailable(`${path} is larger than ${MAX_PICTURE_BYTES} bytes`);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** The first bytes of a regular file (enough to recognise a type), or undefined when it cannot be read. */
export async function readStart(
  path: string,
  checked: Stats,
  length: number,
  options: { followLinks: boolean },
): Promise<Buffer | undefined> {
  if (!checked.isFile()) return undefined;
  try {
    const handle = await open(path, options.followLinks ? READ : READ | constants.O_NOFOLLOW);
    try {
      const opened = await handle.stat();
      if (!opened.isFile() || opened.dev !== checked.dev || opened.ino !== checked.ino) return undefined;
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(length), 0, length, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}

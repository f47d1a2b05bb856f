import { type FSWatcher, type Stats, watch } from 'node:fs';
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { CameraUnavailable } from './errors.js';
import { readRegularFile, readStart } from './file-read.js';
import { detectImageType, inspectImage, type ImageType } from './image-type.js';

/** What a folder gives: the newest complete image. */
export interface FolderPicture {
  bytes: Buffer;
  type: ImageType;
}

/** A candidate: a regular file of the folder, or a symlink to one that stays inside the folder. */
interface Entry {
  /** The path to open: the entry itself, or where its symlink leads. */
  path: string;
  checked: Stats;
  followLinks: boolean;
}

/** Enough of a file's start to recognise its type. */
const SIGNATURE_BYTES = 16;

/**
 * The newest image of a folder (a timelapse folder) by modification time, without reading the
 * whole folder on every capture: the listing is kept, and only the names that changed are looked
 * at again. A change is known from the folder's own modification time (a file added, removed or
 * renamed: the names are read again, and only new ones examined) and, where the filesystem
 * supports it, from a watch on the folder (a file rewritten or touched in place). Every filesystem
 * call is made one after another, so a capture occupies at most one thread of libuv's pool.
 */
export class NewestInFolder {
  private entries = new Map<string, Entry | null>();
  private listed: { ino: number; mtimeMs: number } | undefined;
  private realDir: string | undefined;
  private dirty = new Set<string>();
  private watcher: FSWatcher | undefined;
  /** How many folder entries have been examined (lstat) since the start: a second capture adds only what changed. */
  examined = 0;

  constructor(private readonly dir: string) {}

  async capture(): Promise<FolderPicture> {
    await this.refresh();
    const tried = new Set<string>();
    for (let name = this.newestUntried(tried); name !== undefined; name = this.newestUntried(tried)) {
      tried.add(name);
      const picture = await this.read(name);
      if (picture) return picture;
    }
    throw new CameraUnavailable(`no complete JPEG, PNG or WebP image in ${this.dir}`);
  }

  /** Stops watching the folder. */
  close(): void {
    this.watcher?.close();
    this.watcher = undefined;
  }

  private async refresh(): Promise<void> {
    const info = await stat(this.dir);
    if (!info.isDirectory()) throw new CameraUnavailable(`${this.dir} is no longer a folder`);
    if (this.listed && this.listed.ino !== info.ino) {
      // The folder was replaced: start over, watching the new one.
      this.close();
      this.forget();
    }
    if (this.listed?.mtimeMs !== info.mtimeMs) {
      this.realDir ??= await realpath(this.dir);
      const names = new Set(await readdir(this.dir));
      for (const name of this.entries.keys()) if (!names.has(name)) this.entries.delete(name);
      for (const name of names) if (!this.entries.has(name)) this.dirty.add(name);
      // Taken before reading the names: a change made during the reading is seen next time.
      this.listed = { ino: info.ino, mtimeMs: info.mtimeMs };
      this.startWatching();
    }
    for (const name of [...this.dirty]) {
      this.dirty.delete(name);
      const entry = await this.examine(name);
      if (entry === undefined) this.entries.delete(name);
      else this.entries.set(name, entry);
    }
  }

  /** The entry for a name; null when it is no candidate (a folder, a FIFO, a link leaving the folder), undefined when gone. */
  private async examine(name: string): Promise<Entry | null | undefined> {
    this.examined++;
    const path = join(this.dir, name);
    const own = await lstat(path).catch(() => undefined);
    if (!own) return undefined;
    if (own.isFile()) return { path, checked: own, followLinks: false };
    if (!own.isSymbolicLink()) return null;
    const target = await realpath(path).catch(() => undefined);
    if (!target || !target.startsWith(this.realDir + sep)) return null;
    const checked = await stat(target).catch(() => undefined);
    return checked?.isFile() ? { path: target, checked, followLinks: false } : null;
  }

  private newestUntried(tried: Set<string>): string | undefined {
    let newest: { name: string; mtimeMs: number } | undefined;
    for (const [name, entry] of this.entries) {
      if (!entry || tried.has(name)) continue;
      const { mtimeMs } = entry.checked;
      if (!newest || mtimeMs > newest.mtimeMs || (mtimeMs === newest.mtimeMs && name > newest.name)) newest = { name, mtimeMs };
    }
    return newest?.name;
  }

  /** The picture of one entry, looked at afresh; undefined when it is not (or no longer) a complete image. */
  private async read(name: string): Promise<FolderPicture | undefined> {
    const fresh = await this.examine(name);
    if (fresh === undefined) {
      this.entries.delete(name);
      return undefined;
    }
    this.entries.set(name, fresh);
    if (!fresh) return undefined;
    const start = await readStart(fresh.path, fresh.checked, SIGNATURE_BYTES, fresh);
    if (!start || !detectImageType(start)) return undefined;
    try {
      const bytes = await readRegularFile(fresh.path, fresh.checked, fresh);
      const check = inspectImage(bytes);
      return check.ok ? { bytes, type: check.image.type } : undefined;
    } catch {
      return undefined; // gone or changed since: the next one
    }
  }

  private startWatching(): void {
    if (this.watcher) return;
    try {
      this.watcher = watch(this.dir, { persistent: false }, (_event, name) => {
        if (name) this.dirty.add(name.toString());
        else this.forget(); // the watch lost track: examine everything again
      });
      this.watcher.on('error', () => {
        this.close();
        this.forget();
      });
    } catch {
      // No watch here (a network mount, no inotify watches left): the folder's mtime still tells of new files.
    }
  }

  private forget(): void {
    this.entries.clear();
    this.dirty.clear();
    this.listed = undefined;
    this.realDir = undefined;
  }
}

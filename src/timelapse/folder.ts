import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import type { ImageType } from '../picture/image-type.js';
import type { Picture } from '../picture/sources.js';
import { asRecord, type TimelapseRecord } from './record.js';

/** Frames can be private pictures: only the service's user may read them. */
export const FILE_MODE = 0o600;
export const FOLDER_MODE = 0o700;

const EXTENSIONS: Record<ImageType, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' };
const FRAME_FILE = /^\d{6}\.(jpg|png|webp)$/;
/** Timelapse ids are UUIDs; any other folder under TIMELAPSE_DIR is not ours. */
const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const isTimelapseId = (id: string) => ID.test(id);
export const extensionOf = (type: ImageType) => EXTENSIONS[type];
/** Frames are numbered from 0 without gaps (a skipped frame takes no number), as ffmpeg reads them. */
export const frameFileName = (index: number, type: ImageType) => `${String(index).padStart(6, '0')}.${EXTENSIONS[type]}`;

/** The bytes of one timelapse folder: its frames together, and each other file by name. */
export interface FolderUse {
  id: string;
  frames: number;
  files: [name: string, bytes: number][];
}

const sizeOf = (file: string) =>
  stat(file).then(
    (s) => (s.isFile() ? s.size : 0),
    () => 0,
  );
const namesIn = (dir: string) => readdir(dir).catch(() => [] as string[]);

/**
 * The files of every timelapse under TIMELAPSE_DIR: `<id>/metadata.json`, `<id>/frames/000000.jpg`…
 * and `<id>/timelapse.mp4`. Every file is written atomically (a temporary file synced, then
 * renamed), so a reader or a crash never sees half of one.
 */
export function timelapseFolder(root: string) {
  const folderOf = (id: string) => join(root, id);
  const framesOf = (id: string) => join(root, id, 'frames');
  const write = (file: string, data: string | Buffer) => writeFileAtomic(file, data, { mode: FILE_MODE, fsync: true });

  return {
    framesOf,
    framePath: (id: string, index: number, type: ImageType) => join(framesOf(id), frameFileName(index, type)),
    videoPath: (id: string) => join(folderOf(id), 'timelapse.mp4'),

    async create(id: string): Promise<void> {
      await mkdir(framesOf(id), { recursive: true, mode: FOLDER_MODE });
    },

    writeFrame(id: string, index: number, picture: Picture): Promise<void> {
      return write(join(framesOf(id), frameFileName(index, picture.type)), picture.bytes);
    },

    /** Resolves to the bytes written. */
    async writeRecord(record: TimelapseRecord): Promise<number> {
      const text = `${JSON.stringify(record, null, 2)}\n`;
      await write(join(folderOf(record.id), 'metadata.json'), text);
      return Buffer.byteLength(text);
    },

    /** What every timelapse folder holds on disk (read once at start: it stats every frame). */
    async use(): Promise<FolderUse[]> {
      const uses: FolderUse[] = [];
      // One folder at a time: a long timelapse has many frames to stat.
      for (const id of (await namesIn(root)).filter(isTimelapseId)) {
        const frameSizes = await Promise.all((await namesIn(framesOf(id))).map((name) => sizeOf(join(framesOf(id), name))));
        const names = (await namesIn(folderOf(id))).filter((name) => name !== 'frames');
        const files = await Promise.all(
          names.map(async (name): Promise<[string, number]> => [name, await sizeOf(join(folderOf(id), name))]),
        );
        uses.push({ id, frames: frameSizes.reduce((a, b) => a + b, 0), files });
      }
      return uses;
    },

    /** Every timelapse kept, with the folders whose metadata cannot be read (reported, left alone). */
    async readAll(): Promise<{ records: TimelapseRecord[]; unreadable: string[] }> {
      const names = await readdir(root).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return [];
        throw error;
      });
      const records: TimelapseRecord[] = [];
      const unreadable: string[] = [];
      for (const id of names.filter(isTimelapseId)) {
        const text = await readFile(join(folderOf(id), 'metadata.json'), 'utf8').catch(() => undefined);
        let record: TimelapseRecord | undefined;
        try {
          record = text === undefined ? undefined : await asRecord(JSON.parse(text));
        } catch {
          record = undefined;
        }
        if (record && record.id === id) records.push(record);
        else unreadable.push(folderOf(id));
      }
      return { records, unreadable };
    },

    /**
     * The frames on disk, counted from the files: a crash between a frame and its metadata leaves
     * the frame, which counts. Temporary files of an interrupted write are removed.
     */
    async settleFrames(id: string): Promise<number> {
      const names = await readdir(framesOf(id)).catch(() => [] as string[]);
      await Promise.all(names.filter((n) => !FRAME_FILE.test(n)).map((n) => rm(join(framesOf(id), n), { force: true, recursive: true })));
      return names.filter((n) => FRAME_FILE.test(n)).length;
    },

    remove(id: string): Promise<void> {
      return rm(folderOf(id), { recursive: true, force: true });
    },
  };
}

export type TimelapseFolder = ReturnType<typeof timelapseFolder>;

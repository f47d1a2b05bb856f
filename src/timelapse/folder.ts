import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
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

    writeRecord(record: TimelapseRecord): Promise<void> {
      return write(join(folderOf(record.id), 'metadata.json'), `${JSON.stringify(record, null, 2)}\n`);
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
          record = text === undefined ? undefined : asRecord(JSON.parse(text));
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

import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { InvalidInput, NotFound } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { Timers } from '../core/timers.js';
import type { ImageType } from '../picture/image-type.js';
import type { Picture } from '../picture/sources.js';
import { videoAssembler } from './assembly.js';
import { diskBudget, formatBytes } from './disk-budget.js';
import { diskUse } from './disk-use.js';
import { TimelapseNotFound, NoCamera, TimelapseRunning, TimelapseStorageFull, videoRefusal } from './errors.js';
import { timelapseFolder } from './folder.js';
import { METADATA, metadataWriter } from './metadata.js';
import { configOf, newRecord, type TimelapseRecord } from './record.js';
import { resumeTimelapses } from './resume.js';
import { timelapseConfigIssues } from './rules.js';
import { timelapseRunner } from './runner.js';
import { assemblyTimeLimitMs, warnIfFfmpegMissing } from './video.js';
import { type VideoAnswer, videoAnswer } from './video-file.js';

/** The file system refused to grow a file: no space left on the disk, or the user's quota used up. */
const isDiskFull = (error: unknown) => ['ENOSPC', 'EDQUOT'].includes((error as NodeJS.ErrnoException | undefined)?.code ?? '');

export { TimelapseNotFound, TimelapseRunning, TimelapseStorageFull, VideoNotReady } from './errors.js';

export interface TimelapseConfig {
  frequency: number;
  duration: number;
  framerate: number;
  name?: string | null;
}

export interface TimelapseStatus {
  running: boolean;
  metadata: TimelapseRecord | null;
  config: ReturnType<typeof configOf> | null;
}

export interface TimelapseServiceOptions {
  /** TIMELAPSE_DIR */
  dir: string;
  ffmpegPath: string;
  /** TIMELAPSE_MAX_FRAMES: the most frames one timelapse may plan. */
  maxFrames: number;
  /** TIMELAPSE_MAX_BYTES: the most all timelapses together may keep on disk (0: no bound). */
  maxBytes: number;
  /** One camera picture: the picture route's shared capture, so both share captures. */
  capture: () => Promise<Picture>;
  /** Whether there is a camera at all (PICTURE_SOURCE set, or a picture uploaded); without this option, assumed. */
  hasCamera?: () => Promise<boolean>;
  now: () => number;
  timers: Timers;
  log: Logger;
  timeLimitMs?: (frames: number) => number;
}

const newestFirst = (a: TimelapseRecord, b: TimelapseRecord) => (a.start_date < b.start_date ? 1 : a.start_date > b.start_date ? -1 : 0);

/**
 * Timelapses: at most one running, its frames taken on a fixed grid from the camera and kept
 * with its metadata under TIMELAPSE_DIR; when it ends or is stopped, ffmpeg makes the video
 * (one assembly at a time). A timelapse still running when the service stops resumes at the next
 * start, until its end date.
 */
export function timelapseService(options: TimelapseServiceOptions) {
  const { now, log, ffmpegPath } = options;
  const folder = timelapseFolder(options.dir);
  const records = new Map<string, TimelapseRecord>();
  const kept = (id: string) => records.has(id);
  const newest = () => [...records.values()].sort(newestFirst);
  let starting = false;
  let closed = false;
  const budget = diskBudget(options.maxBytes);
  const disk = diskUse(folder, budget);
  const { save, ...metadata } = metadataWriter({ folder, budget, log, kept });
  const timeLimitMs = options.timeLimitMs ?? assemblyTimeLimitMs;
  const assembler = videoAssembler({ folder, budget, ffmpegPath, timeLimitMs, log, save, kept, closed: () => closed });
  const assemble = assembler.assemble;
  const runner = timelapseRunner({ ...options, folder, budget, save, assemble, described: disk.described });

  async function begin(config: TimelapseConfig): Promise<TimelapseRecord> {
    await disk.measure();
    if (budget.full()) {
      throw new TimelapseStorageFull(
        `Timelapses use ${disk.described()} under TIMELAPSE_DIR, and TIMELAPSE_MAX_BYTES allows ${formatBytes(budget.limitBytes)} ` +
          `(${budget.limitBytes} bytes): no new timelapse can start. Free space by deleting old timelapses ` +
          '(DELETE /timelapse/{id}, or the Delete button on the dashboard), or raise TIMELAPSE_MAX_BYTES.',
      );
    }
    const record = newRecord(randomUUID(), config, now());
    try {
      await folder.create(record.id);
      budget.setFile(record.id, METADATA, await folder.writeRecord(record));
    } catch (error) {
      if (!isDiskFull(error)) throw error;
      // Nothing half made is left behind: the folder goes, and the answer says which disk to free.
      await folder.remove(record.id).catch(() => undefined);
      throw new TimelapseStorageFull(
        `Cannot start a timelapse: disk full. Free space on the disk holding ${resolve(options.dir)} (TIMELAPSE_DIR); ` +
          'reads still work, and a timelapse can start again once there is space.',
      );
    }
    records.set(record.id, record);
    runner.run(record, 0);
    void warnIfFfmpegMissing(ffmpegPath, log);
    log.info({ timelapse: record.id, frequency: config.frequency, duration: config.duration }, 'timelapse started');
    return { ...record };
  }

  return {
    /** Starts a timelapse: the configuration's rules that span fields first (422), then one at a time (409). */
    async start(config: TimelapseConfig): Promise<TimelapseRecord> {
      const issues = timelapseConfigIssues(config, options.maxFrames);
      if (issues.length > 0) throw new InvalidInput(...issues);
      if (runner.current() || starting) throw new TimelapseRunning('A timelapse is already running: stop it first');
      starting = true;
      try {
        // A timelapse of nothing: refused at once rather than counting failed frames for its whole duration.
        if (options.hasCamera && !(await options.hasCamera()))
          throw new NoCamera('no camera: set PICTURE_SOURCE (or upload a picture with PUT /picture) before starting a timelapse');
        return await begin(config);
      } finally {
        starting = false;
      }
    },

    /** Stops the running timelapse, if any, and queues its video. */
    stop: () => runner.stop(),

    status(): TimelapseStatus {
      const current = runner.current() ?? newest()[0];
      return {
        running: runner.current() !== undefined,
        metadata: current ? { ...current } : null,
        config: current ? configOf(current) : null,
      };
    },

    list: (): TimelapseRecord[] => newest().map((record) => ({ ...record })),

    /** The newest frame of the running timelapse. */
    async latestFrame(): Promise<{ bytes: Buffer; type: ImageType }> {
      const record = runner.current();
      const type = record?.image_type ?? undefined;
      const path = record && record.frames > 0 && type ? folder.framePath(record.id, record.frames - 1, type) : undefined;
      const bytes = path && (await readFile(path).catch(() => undefined));
      if (!bytes || !type) throw new NotFound('No timelapse frame: no timelapse is running, or it has taken no frame yet');
      return { bytes, type };
    },

    /** The video of a finished timelapse, as the request's Range and conditional headers ask for it. */
    async video(id: string, request: Readable): Promise<Exclude<VideoAnswer, { kind: 'gone' }>> {
      const record = records.get(id);
      if (!record) throw new TimelapseNotFound(`Timelapse ${id} not found`);
      if (!record.ready) throw videoRefusal(record);
      const answer = await videoAnswer(request, folder.videoPath(id));
      if (answer.kind === 'gone') throw new TimelapseNotFound(`Timelapse ${id} not found`);
      return answer;
    },

    /** Deletes a timelapse and its files, stopping it first if it is running (no video is made). */
    async remove(id: string): Promise<void> {
      const record = records.get(id);
      if (!record) throw new TimelapseNotFound(`Timelapse ${id} not found`);
      records.delete(id);
      if (runner.current() === record) await runner.pause();
      await assembler.cancel(id);
      await metadata.forget(id);
      await folder.remove(id);
      budget.forget(id);
      log.info({ timelapse: id, usedBytes: budget.usedBytes }, 'timelapse deleted');
    },

    /** At start: see resume.ts. */
    async resume(): Promise<void> {
      await disk.measure();
      await resumeTimelapses({ folder, records, newest, runner, save, assemble, ffmpegPath, now, log });
    },

    /** The service is stopping: frames stop (a running timelapse resumes at the next start), ffmpeg is stopped. */
    async close(): Promise<void> {
      closed = true;
      await runner.pause();
      await assembler.close();
      await metadata.settled();
    },
  };
}

export type TimelapseService = ReturnType<typeof timelapseService>;

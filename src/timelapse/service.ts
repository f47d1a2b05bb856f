import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { ImageType } from '../picture/image-type.js';
import type { Picture } from '../picture/sources.js';
import { extensionOf, timelapseFolder } from './folder.js';
import { configOf, type TimelapseRecord } from './record.js';
import { type FrameGrid, slotCount } from './schedule.js';
import { type FrameScheduler, frameScheduler, type Timers } from './scheduler.js';
import { assembleVideo, assemblyTimeLimitMs, ffmpegMissing, ffmpegRuns, VideoFailure } from './video.js';
import { Conflict, NotFound } from '../services/errors.js';

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

export class TimelapseRunning extends Conflict {}
export class TimelapseNotFound extends NotFound {}
/** The video cannot be downloaded (yet); the message says why. */
export class VideoNotReady extends Conflict {}

export interface TimelapseServiceOptions {
  /** TIMELAPSE_DIR */
  dir: string;
  ffmpegPath: string;
  /** One camera picture: the picture route's shared capture, so both share captures. */
  capture: () => Promise<Picture>;
  timers: Timers;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  timeLimitMs?: (frames: number) => number;
}

interface Running {
  record: TimelapseRecord;
  scheduler: FrameScheduler;
  /** Aborted when it stops: a capture under way is then not waited for, and its picture not kept. */
  abort: AbortController;
}

const gridOf = (record: TimelapseRecord): FrameGrid => ({
  startMs: Date.parse(record.start_date),
  frequencyMs: record.frequency * 1000,
  durationMs: record.duration * 1000,
});

const iso = (ms: number) => new Date(ms).toISOString();
const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The capture, or a rejection as soon as the signal aborts. */
function unlessAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  let onAbort = () => {};
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([work, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}

/**
 * Timelapses: at most one running, its frames taken on a fixed grid from the camera and kept
 * with its metadata under TIMELAPSE_DIR; when it ends or is stopped, ffmpeg makes the video
 * (one assembly at a time). A timelapse still running when the service stops resumes at the next
 * start, until its end date.
 */
export function timelapseService(options: TimelapseServiceOptions) {
  const { timers, log } = options;
  const folder = timelapseFolder(options.dir);
  const timeLimitMs = options.timeLimitMs ?? assemblyTimeLimitMs;
  const records = new Map<string, TimelapseRecord>();
  /** The latest metadata write of each timelapse, chained so they land in order. */
  const saves = new Map<string, Promise<void>>();
  const assemblies = new Map<string, { abort: AbortController; done: Promise<void> }>();
  let assemblyQueue: Promise<void> = Promise.resolve();
  let running: Running | undefined;
  let starting = false;
  let closed = false;

  const save = (record: TimelapseRecord): Promise<void> => {
    // Deleted meanwhile (a stop or an end that crossed a delete): its folder is gone for good.
    if (!records.has(record.id)) return Promise.resolve();
    const snapshot = { ...record };
    const next = (saves.get(record.id) ?? Promise.resolve())
      .then(() => folder.writeRecord(snapshot))
      .catch((error: unknown) => log.error({ timelapse: record.id, reason: reason(error) }, 'timelapse metadata not written'));
    saves.set(record.id, next);
    return next;
  };

  const newest = () => [...records.values()].sort((a, b) => (a.start_date < b.start_date ? 1 : a.start_date > b.start_date ? -1 : 0));

  async function takeFrame(record: TimelapseRecord, signal: AbortSignal): Promise<void> {
    let picture: Picture;
    try {
      picture = await unlessAborted(options.capture(), signal);
    } catch (error) {
      if (signal.aborted) return;
      record.failed_frames++;
      log.warn({ timelapse: record.id, reason: reason(error) }, 'timelapse frame skipped: camera not available');
      return save(record);
    }
    if (signal.aborted) return;
    if (record.image_type !== null && picture.type !== record.image_type) {
      record.failed_frames++;
      log.warn(
        { timelapse: record.id, type: picture.type, expected: record.image_type },
        'timelapse frame skipped: the camera changed image type',
      );
      return save(record);
    }
    try {
      await folder.writeFrame(record.id, record.frames, picture);
    } catch (error) {
      record.failed_frames++;
      log.error({ timelapse: record.id, reason: reason(error) }, 'timelapse frame skipped: not written');
      return save(record);
    }
    record.image_type = picture.type;
    record.frames++;
    record.latest_frame_date = iso(timers.now());
    return save(record);
  }

  /** Takes frames from slot `from` on. */
  function run(record: TimelapseRecord, from: number): void {
    const abort = new AbortController();
    const scheduler = frameScheduler({
      grid: gridOf(record),
      from,
      timers,
      takeFrame: () => takeFrame(record, abort.signal),
      onMissed: (count) => {
        record.failed_frames += count;
        void save(record);
      },
      onEnd: () => void finish(record, false),
    });
    running = { record, scheduler, abort };
    scheduler.start();
  }

  /** Ends the frames of the running timelapse (the end came, or it was stopped) and queues its video. */
  async function finish(record: TimelapseRecord, stopped: boolean): Promise<void> {
    const current = running;
    if (current?.record !== record) return;
    running = undefined;
    current.abort.abort();
    await current.scheduler.stop();
    record.state = 'assembling';
    if (stopped) record.stopped_date = iso(timers.now());
    await save(record);
    assemble(record);
  }

  function assemble(record: TimelapseRecord): void {
    const abort = new AbortController();
    const done = assemblyQueue.then(async () => {
      if (abort.signal.aborted || closed || !records.has(record.id)) return;
      if (record.frames > 0) {
        try {
          await assembleVideo({
            ffmpegPath: options.ffmpegPath,
            framesDir: folder.framesOf(record.id),
            extension: extensionOf(record.image_type as ImageType),
            framerate: record.framerate,
            output: folder.videoPath(record.id),
            timeLimitMs: timeLimitMs(record.frames),
            signal: abort.signal,
          });
          record.ready = true;
          record.video_failure = null;
          log.info({ timelapse: record.id, frames: record.frames }, 'timelapse video ready');
        } catch (error) {
          // Deleted, or the service is stopping (the video is made at the next start).
          if (abort.signal.aborted) return;
          const failure = error instanceof VideoFailure ? error : new VideoFailure('failed', reason(error));
          record.video_failure = { kind: failure.kind, message: failure.message };
          log.error({ timelapse: record.id, reason: failure.message }, `timelapse video not made: ${failure.message}`);
        }
      }
      record.state = 'finished';
      await save(record);
    });
    assemblyQueue = done.catch(() => undefined);
    assemblies.set(record.id, { abort, done });
    void done.finally(() => {
      if (assemblies.get(record.id)?.done === done) assemblies.delete(record.id);
    });
  }

  /** Stops the frames of the running one without ending it (the service is stopping). */
  async function pause(): Promise<void> {
    const current = running;
    running = undefined;
    if (!current) return;
    current.abort.abort();
    await current.scheduler.stop();
  }

  const warnWithoutFfmpeg = async () => {
    if (!(await ffmpegRuns(options.ffmpegPath))) {
      log.warn(
        { ffmpeg: options.ffmpegPath },
        `timelapse frames are taken, but no video can be made: ${ffmpegMissing(options.ffmpegPath)}`,
      );
    }
  };

  return {
    async start(config: TimelapseConfig): Promise<TimelapseRecord> {
      if (running || starting) throw new TimelapseRunning('A timelapse is already running: stop it first');
      starting = true;
      try {
        const id = randomUUID();
        const startMs = timers.now();
        const record: TimelapseRecord = {
          id,
          name: config.name?.trim() || `Timelapse ${id.slice(0, 8)}`,
          frames: 0,
          failed_frames: 0,
          framerate: config.framerate,
          frequency: config.frequency,
          duration: config.duration,
          start_date: iso(startMs),
          latest_frame_date: null,
          end_date: iso(startMs + config.duration * 1000),
          stopped_date: null,
          ready: false,
          state: 'running',
          image_type: null,
          video_failure: null,
        };
        await folder.create(id);
        await folder.writeRecord(record);
        records.set(id, record);
        run(record, 0);
        void warnWithoutFfmpeg();
        log.info({ timelapse: id, frequency: config.frequency, duration: config.duration }, 'timelapse started');
        return { ...record };
      } finally {
        starting = false;
      }
    },

    /** Stops the running timelapse, if any, and queues its video. */
    async stop(): Promise<void> {
      if (running) await finish(running.record, true);
    },

    status(): TimelapseStatus {
      const current = running?.record ?? newest()[0];
      return { running: running !== undefined, metadata: current ? { ...current } : null, config: current ? configOf(current) : null };
    },

    list(): TimelapseRecord[] {
      return newest().map((record) => ({ ...record }));
    },

    /** The newest frame of the running timelapse, if it has one. */
    latestFrame(): { path: string; type: ImageType } | undefined {
      const record = running?.record;
      if (!record || record.frames === 0 || record.image_type === null) return undefined;
      return { path: folder.framePath(record.id, record.frames - 1, record.image_type), type: record.image_type };
    },

    /** The video file of a finished timelapse. */
    video(id: string): { path: string; record: TimelapseRecord } {
      const record = records.get(id);
      if (!record) throw new TimelapseNotFound(`Timelapse ${id} not found`);
      if (record.ready) return { path: folder.videoPath(id), record };
      if (record.state === 'running')
        throw new VideoNotReady(`Timelapse ${id} is still running: its video is made when it ends or is stopped`);
      if (record.state === 'assembling') throw new VideoNotReady(`The video of timelapse ${id} is being assembled: try again shortly`);
      if (record.frames === 0) throw new VideoNotReady(`Timelapse ${id} has no video: no frame was taken (the camera gave no picture)`);
      throw new VideoNotReady(`The video of timelapse ${id} could not be made: ${record.video_failure?.message ?? 'unknown reason'}`);
    },

    /** Deletes a timelapse and its files, stopping it first if it is running (no video is made). */
    async remove(id: string): Promise<void> {
      const record = records.get(id);
      if (!record) throw new TimelapseNotFound(`Timelapse ${id} not found`);
      records.delete(id);
      if (running?.record === record) await pause();
      const assembly = assemblies.get(id);
      if (assembly) {
        assembly.abort.abort();
        await assembly.done.catch(() => undefined);
      }
      await saves.get(id);
      saves.delete(id);
      await folder.remove(id);
      log.info({ timelapse: id }, 'timelapse deleted');
    },

    /**
     * At start: the timelapse that was running goes on until its end date (slots that passed
     * while the service was down count as failed), one whose end has passed gets its video, and so
     * does one whose assembly was interrupted, or that waited for ffmpeg to be installed.
     */
    async resume(): Promise<void> {
      const { records: found, unreadable } = await folder.readAll();
      for (const path of unreadable) log.warn({ folder: path }, 'timelapse folder without readable metadata: left as it is');
      for (const record of found) records.set(record.id, record);
      const waitingForFfmpeg = found.filter((r) => r.state === 'finished' && !r.ready && r.video_failure?.kind === 'missing');
      const ffmpegNow = waitingForFfmpeg.length > 0 && (await ffmpegRuns(options.ffmpegPath));
      for (const record of newest()) {
        if (record.state === 'running') {
          record.frames = await folder.settleFrames(record.id);
          if (!running && Date.parse(record.end_date) > timers.now()) {
            log.info({ timelapse: record.id, frames: record.frames }, 'timelapse resumed');
            run(record, record.frames + record.failed_frames);
            continue;
          }
          // It ended while the service was down: the slots it did not get to count as failed.
          record.failed_frames = Math.max(record.failed_frames, slotCount(gridOf(record)) - record.frames);
          record.state = 'assembling';
          await save(record);
        }
        if (record.state === 'assembling' || (ffmpegNow && waitingForFfmpeg.includes(record))) assemble(record);
      }
    },

    /** The service is stopping: frames stop (a running timelapse resumes at the next start), ffmpeg is stopped. */
    async close(): Promise<void> {
      closed = true;
      await pause();
      for (const { abort } of assemblies.values()) abort.abort();
      await assemblyQueue;
      await Promise.all(saves.values());
    },
  };
}

export type TimelapseService = ReturnType<typeof timelapseService>;

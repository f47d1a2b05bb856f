import { stat } from 'node:fs/promises';
import type { Logger } from '../core/logger.js';
import type { ImageType } from '../picture/image-type.js';
import { reason } from '../picture/errors.js';
import type { DiskBudget } from './disk-budget.js';
import { extensionOf, type TimelapseFolder } from './folder.js';
import type { TimelapseRecord } from './record.js';
import { assembleVideo, VideoFailure } from './video.js';

export const VIDEO = 'timelapse.mp4';

export interface AssemblerDeps {
  folder: Pick<TimelapseFolder, 'framesOf' | 'videoPath'>;
  budget: Pick<DiskBudget, 'setFile'>;
  ffmpegPath: string;
  timeLimitMs: (frames: number) => number;
  log: Logger;
  save(record: TimelapseRecord): Promise<void>;
  /** False once the timelapse is deleted. */
  kept(id: string): boolean;
  /** True once the service is stopping: no assembly starts then (it is made at the next start). */
  closed(): boolean;
}

/** The videos of finished timelapses, made by ffmpeg one at a time, in the order asked. */
export function videoAssembler(deps: AssemblerDeps) {
  const { folder, budget, log, save } = deps;
  const assemblies = new Map<string, { abort: AbortController; done: Promise<void> }>();
  let queue: Promise<void> = Promise.resolve();

  /** Makes the video; a failure is kept in the record (`video_failure`), unless the assembly was aborted. */
  async function make(record: TimelapseRecord, signal: AbortSignal): Promise<'made' | 'failed' | 'aborted'> {
    try {
      await assembleVideo({
        ffmpegPath: deps.ffmpegPath,
        framesDir: folder.framesOf(record.id),
        extension: extensionOf(record.image_type as ImageType),
        framerate: record.framerate,
        output: folder.videoPath(record.id),
        timeLimitMs: deps.timeLimitMs(record.frames),
        signal,
      });
      const size = await stat(folder.videoPath(record.id)).then(
        (file) => file.size,
        () => 0,
      );
      budget.setFile(record.id, VIDEO, size);
      record.ready = true;
      record.video_failure = null;
      log.info({ timelapse: record.id, frames: record.frames }, 'timelapse video ready');
      return 'made';
    } catch (error) {
      // Deleted, or the service is stopping (the video is made at the next start).
      if (signal.aborted) return 'aborted';
      const failure = error instanceof VideoFailure ? error : new VideoFailure('failed', reason(error));
      record.video_failure = { kind: failure.kind, message: failure.message };
      log.error({ timelapse: record.id, reason: failure.message }, `timelapse video not made: ${failure.message}`);
      return 'failed';
    }
  }

  return {
    /** Queues the video of a timelapse that is assembling; it is finished once made (or given up). */
    assemble(record: TimelapseRecord): void {
      const abort = new AbortController();
      const done = queue.then(async () => {
        if (abort.signal.aborted || deps.closed() || !deps.kept(record.id)) return;
        if (record.frames > 0 && (await make(record, abort.signal)) === 'aborted') return;
        record.state = 'finished';
        await save(record);
      });
      queue = done.catch(() => undefined);
      assemblies.set(record.id, { abort, done });
      void done.finally(() => {
        if (assemblies.get(record.id)?.done === done) assemblies.delete(record.id);
      });
    },

    /** Stops the assembly of a deleted timelapse, if one is queued or under way. */
    async cancel(id: string): Promise<void> {
      const assembly = assemblies.get(id);
      if (!assembly) return;
      assembly.abort.abort();
      await assembly.done.catch(() => undefined);
    },

    /** Stops ffmpeg (the service is stopping) and waits for the queue to settle. */
    async close(): Promise<void> {
      for (const { abort } of assemblies.values()) abort.abort();
      await queue;
    },
  };
}

import type { Logger } from '../core/logger.js';
import type { Timers } from '../core/timers.js';
import type { Picture } from '../picture/sources.js';
import type { DiskBudget } from './disk-budget.js';
import type { TimelapseFolder } from './folder.js';
import { frameTaker } from './frames.js';
import { gridOf, type TimelapseRecord } from './record.js';
import { type FrameScheduler, frameScheduler } from './scheduler.js';

export interface RunnerDeps {
  folder: Pick<TimelapseFolder, 'writeFrame'>;
  budget: Pick<DiskBudget, 'full' | 'addFrame' | 'usedBytes' | 'limitBytes'>;
  capture: () => Promise<Picture>;
  now: () => number;
  timers: Timers;
  log: Logger;
  save(record: TimelapseRecord): Promise<void>;
  /** Queues the video of a timelapse whose frames ended. */
  assemble(record: TimelapseRecord): void;
  /** What the timelapses use on disk, in words. */
  described(): string;
}

interface Running {
  record: TimelapseRecord;
  scheduler: FrameScheduler;
  /** Aborted when it stops: a capture under way is then not waited for, and its picture not kept. */
  abort: AbortController;
}

/** The one running timelapse: its frames taken on its grid until it ends, is stopped, or reaches the disk bound. */
export function timelapseRunner(deps: RunnerDeps) {
  const { budget, now, timers, log, save } = deps;
  let running: Running | undefined;
  const takeFrame = frameTaker({ ...deps, budget, atBound: stopAtBound });

  /** The disk bound is reached: no more frames, the video is made of those taken (it is not a failure). */
  function stopAtBound(record: TimelapseRecord): void {
    log.warn(
      { timelapse: record.id, frames: record.frames, usedBytes: budget.usedBytes, maxBytes: budget.limitBytes },
      `timelapse stopped: timelapses use ${deps.described()}, TIMELAPSE_MAX_BYTES is ${budget.limitBytes}; its video is made of the frames taken`,
    );
    // Not awaited: the stop waits for this frame to settle.
    void finish(record, true);
  }

  /** Ends the frames of the running timelapse (the end came, or it was stopped) and queues its video. */
  async function finish(record: TimelapseRecord, stopped: boolean): Promise<void> {
    const current = running;
    if (current?.record !== record) return;
    running = undefined;
    current.abort.abort();
    await current.scheduler.stop();
    record.state = 'assembling';
    if (stopped) record.stopped_date = new Date(now()).toISOString();
    await save(record);
    deps.assemble(record);
  }

  return {
    /** The running timelapse's record, if one runs. */
    current: (): TimelapseRecord | undefined => running?.record,

    /** Takes frames from slot `from` on. */
    run(record: TimelapseRecord, from: number): void {
      const abort = new AbortController();
      const scheduler = frameScheduler({
        grid: gridOf(record),
        from,
        now,
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
    },

    /** Stops the running timelapse, if any, and queues its video. */
    async stop(): Promise<void> {
      if (running) await finish(running.record, true);
    },

    /** Stops the frames of the running one without ending it (deleted, or the service is stopping). */
    async pause(): Promise<void> {
      const current = running;
      running = undefined;
      if (!current) return;
      current.abort.abort();
      await current.scheduler.stop();
    },
  };
}

export type TimelapseRunner = ReturnType<typeof timelapseRunner>;

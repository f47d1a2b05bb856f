import type { Logger } from '../core/logger.js';
import type { TimelapseFolder } from './folder.js';
import { gridOf, type TimelapseRecord } from './record.js';
import type { TimelapseRunner } from './runner.js';
import { slotCount } from './schedule.js';
import { ffmpegRuns } from './video.js';

export interface ResumeDeps {
  folder: Pick<TimelapseFolder, 'readAll' | 'settleFrames'>;
  /** The records known, filled from the folder. */
  records: Map<string, TimelapseRecord>;
  /** Newest first. */
  newest(): TimelapseRecord[];
  runner: Pick<TimelapseRunner, 'current' | 'run'>;
  save(record: TimelapseRecord): Promise<void>;
  assemble(record: TimelapseRecord): void;
  ffmpegPath: string;
  now: () => number;
  log: Logger;
}

/**
 * At start: the timelapse that was running goes on until its end date (slots that passed while
 * the service was down count as failed), one whose end has passed gets its video, and so does one
 * whose assembly was interrupted, or that waited for ffmpeg to be installed.
 */
export async function resumeTimelapses({ folder, records, newest, runner, save, assemble, ffmpegPath, now, log }: ResumeDeps) {
  const { records: found, unreadable } = await folder.readAll();
  for (const path of unreadable) log.warn({ folder: path }, 'timelapse folder without readable metadata: left as it is');
  for (const record of found) records.set(record.id, record);
  const waitingForFfmpeg = found.filter((r) => r.state === 'finished' && !r.ready && r.video_failure?.kind === 'missing');
  const ffmpegNow = waitingForFfmpeg.length > 0 && (await ffmpegRuns(ffmpegPath));
  for (const record of newest()) {
    if (record.state === 'running') {
      record.frames = await folder.settleFrames(record.id);
      if (!runner.current() && Date.parse(record.end_date) > now()) {
        log.info({ timelapse: record.id, frames: record.frames }, 'timelapse resumed');
        runner.run(record, record.frames + record.failed_frames);
        continue;
      }
      // It ended while the service was down: the slots it did not get to count as failed.
      record.failed_frames = Math.max(record.failed_frames, slotCount(gridOf(record)) - record.frames);
      record.state = 'assembling';
      await save(record);
    }
    if (record.state === 'assembling' || (ffmpegNow && waitingForFfmpeg.includes(record))) assemble(record);
  }
}

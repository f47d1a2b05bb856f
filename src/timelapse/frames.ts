import type { Logger } from '../core/logger.js';
import { reason } from '../picture/errors.js';
import type { Picture } from '../picture/sources.js';
import type { DiskBudget } from './disk-budget.js';
import type { TimelapseFolder } from './folder.js';
import type { TimelapseRecord } from './record.js';

export interface FrameTakerDeps {
  folder: Pick<TimelapseFolder, 'writeFrame'>;
  budget: Pick<DiskBudget, 'full' | 'addFrame'>;
  /** One camera picture. */
  capture: () => Promise<Picture>;
  now: () => number;
  log: Logger;
  save(record: TimelapseRecord): Promise<void>;
  /** The disk bound is reached: the timelapse takes no more frames. */
  atBound(record: TimelapseRecord): void;
}

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
 * Takes one frame of a timelapse: a picture from the camera, written as its next frame file. A
 * frame the camera did not give, of another image type than the first, or not written counts as
 * failed; a picture that arrives after the signal aborted (the timelapse stopped) is not kept.
 */
export function frameTaker({ folder, budget, capture, now, log, save, atBound }: FrameTakerDeps) {
  return async function takeFrame(record: TimelapseRecord, signal: AbortSignal): Promise<void> {
    if (budget.full()) return atBound(record);
    let picture: Picture;
    try {
      picture = await unlessAborted(capture(), signal);
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
    budget.addFrame(record.id, picture.bytes.length);
    record.image_type = picture.type;
    record.frames++;
    record.latest_frame_date = new Date(now()).toISOString();
    const saved = save(record);
    if (budget.full()) atBound(record);
    return saved;
  };
}

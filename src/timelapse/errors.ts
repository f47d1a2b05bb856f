import { Conflict, InsufficientStorage, NotFound } from '../core/errors.js';
import type { TimelapseRecord } from './record.js';

export class TimelapseRunning extends Conflict {}
/** PICTURE_SOURCE is unset and no picture was ever uploaded: every frame would fail. */
export class NoCamera extends Conflict {}
export class TimelapseNotFound extends NotFound {}
/** The video cannot be downloaded (yet); the message says why. */
export class VideoNotReady extends Conflict {}
/** TIMELAPSE_MAX_BYTES is reached: nothing new may be kept. */
export class TimelapseStorageFull extends InsufficientStorage {}

/** Why a timelapse's video cannot be downloaded, when it is not ready. */
export function videoRefusal(record: TimelapseRecord): VideoNotReady {
  const id = record.id;
  if (record.state === 'running')
    return new VideoNotReady(`Timelapse ${id} is still running: its video is made when it ends or is stopped`);
  if (record.state === 'assembling') return new VideoNotReady(`The video of timelapse ${id} is being assembled: try again shortly`);
  if (record.frames === 0) return new VideoNotReady(`Timelapse ${id} has no video: no frame was taken (the camera gave no picture)`);
  return new VideoNotReady(`The video of timelapse ${id} could not be made: ${record.video_failure?.message ?? 'unknown reason'}`);
}

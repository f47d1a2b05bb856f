import type { ValidationIssue } from '../core/errors.js';
import { slotCount } from './schedule.js';

export interface PlannedTimelapse {
  frequency: number;
  duration: number;
}

/**
 * The rules of a timelapse configuration that span fields: the duration holds at least one
 * frequency, and the frames it plans stay within TIMELAPSE_MAX_FRAMES (the disk it may use).
 */
export function timelapseConfigIssues(config: PlannedTimelapse, maxFrames: number): ValidationIssue[] {
  if (config.duration < config.frequency) {
    return [
      {
        loc: ['body', 'duration'],
        msg: `duration (${config.duration} s) must be at least frequency (${config.frequency} s)`,
        type: 'duration_too_short',
      },
    ];
  }
  const frames = slotCount({ startMs: 0, frequencyMs: config.frequency * 1000, durationMs: config.duration * 1000 });
  if (frames > maxFrames) {
    return [
      {
        loc: ['body', 'duration'],
        msg: `This timelapse would take ${frames} frames, more than TIMELAPSE_MAX_FRAMES (${maxFrames}): lengthen the frequency or shorten the duration`,
        type: 'too_many_frames',
      },
    ];
  }
  return [];
}

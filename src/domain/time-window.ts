import { parseDuration } from './duration.js';
import { isWithinYears, LONGEST_DURATION } from './instants.js';

/** A window over time in epoch ms: `start` inclusive, `end` exclusive unless `endInclusive`. */
export interface TimeWindow {
  start?: number;
  end?: number;
  endInclusive: boolean;
}

export interface WindowProblem {
  field: 'time_delta' | 'start_time' | 'end_time';
  msg: string;
  type: string;
}

export interface WindowInput {
  time_delta?: string;
  /** Already parsed to epoch ms. */
  start_time?: number;
  end_time?: number;
}

/**
 * The window rules: `time_delta` alone selects [now - delta, now]; with `end_time`,
 * [end - delta, end); `start_time`/`end_time` select [start, end). `time_delta` with `start_time`,
 * or a start after the end, is a problem. So is a duration longer than the years 1 to 9999, or a
 * start before the year 1 (`end_time=0001-01-01T00:00:00Z&time_delta=P1D`): the window is refused
 * rather than cut, so a client never receives less than it asked for without knowing.
 */
export function resolveWindow(input: WindowInput, now: number): TimeWindow | WindowProblem {
  if (input.time_delta !== undefined) {
    if (input.start_time !== undefined) {
      return { field: 'time_delta', msg: 'time_delta cannot be combined with start_time', type: 'value_error' };
    }
    const delta = parseDuration(input.time_delta);
    if (delta === undefined) {
      return {
        field: 'time_delta',
        msg: 'Input should be a valid non-negative duration (e.g. P7D, 07d,00:00:00, 3600)',
        type: 'duration_parsing',
      };
    }
    if (delta > LONGEST_DURATION) {
      return { field: 'time_delta', msg: 'Duration should be at most the span of the years 1 to 9999', type: 'duration_too_long' };
    }
    const window =
      input.end_time !== undefined
        ? { start: input.end_time - delta, end: input.end_time, endInclusive: false }
        : { start: now - delta, end: now, endInclusive: true };
    if (!isWithinYears(window.start)) {
      return { field: 'time_delta', msg: 'The window should start within the years 1 to 9999', type: 'value_error' };
    }
    return window;
  }
  if (input.start_time !== undefined && input.end_time !== undefined && input.start_time > input.end_time) {
    return { field: 'start_time', msg: 'start_time must not be after end_time', type: 'value_error' };
  }
  return { start: input.start_time, end: input.end_time, endInclusive: false };
}

export function isWindowProblem(value: TimeWindow | WindowProblem): value is WindowProblem {
  return 'field' in value;
}

/**
 * The rest of a window after a row at `timestamp` (keyset pagination): the start moves up to that
 * timestamp, so the index range of the next page begins there. Only the comparison of ids for
 * rows at that same timestamp is left as a filter; with the start left where it was, every page
 * would scan again from the start of the window past every row already read (quadratic).
 */
export function restAfter(window: TimeWindow, timestamp: number): TimeWindow {
  return { ...window, start: window.start === undefined ? timestamp : Math.max(window.start, timestamp) };
}

import { parseDateTime } from '../domain/date-time.js';
import { isWindowProblem, resolveWindow, type TimeWindow } from '../domain/time-window.js';
import { InvalidInput } from './errors.js';

export interface WindowFields {
  time_delta?: string;
  start_time?: string;
  end_time?: string;
}

/** The window the query names, or a 422-worthy problem with the query field it concerns. */
export function windowOf(query: WindowFields, now: number): TimeWindow {
  const window = resolveWindow(
    {
      time_delta: query.time_delta,
      start_time: query.start_time === undefined ? undefined : parseDateTime(query.start_time),
      end_time: query.end_time === undefined ? undefined : parseDateTime(query.end_time),
    },
    now,
  );
  if (isWindowProblem(window)) throw new InvalidInput({ loc: ['query', window.field], msg: window.msg, type: window.type });
  return window;
}

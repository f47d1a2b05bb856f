import { parseDateTime } from '../domain/date-time.js';
import { InvalidInput } from '../core/errors.js';

/** A record may be dated up to this far ahead of the server clock (a device's or a browser's clock may run fast); no further. */
export const MAX_FUTURE_MS = 5 * 60 * 1000;

/**
 * When a record happened: the time the request gives (already a valid date-time, checked by its
 * schema), or now. A record of what happened cannot lie ahead: more than 5 minutes → 422 at `loc`.
 */
export function recordTime(text: string | undefined, now: number, loc: (string | number)[]): number {
  if (text === undefined) return now;
  const at = parseDateTime(text);
  if (at > now + MAX_FUTURE_MS) throw new InvalidInput({ loc, msg: 'The time is more than 5 minutes in the future', type: 'value_error' });
  return at;
}

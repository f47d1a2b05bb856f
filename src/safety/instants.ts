/**
 * Time arithmetic shared by the safety rules (docs/api.md §14). Instants are epoch milliseconds,
 * settings are seconds. An elapsed time is always the milliseconds divided into seconds, never the
 * seconds multiplied into milliseconds: `2.007 * 1000` is 2007.0000000000002 and would move a
 * boundary. Every comparison is written so that NaN answers the way that keeps a pump still.
 */

/** Whether at least `seconds` have passed from `since` to `at` (an instant before `since` has not). NaN → false. */
export const hasElapsed = (since: number, at: number, seconds: number): boolean => (at - since) / 1000 >= seconds;

/** How far a search steps from its estimate: the estimate is off by floating-point rounding only. */
const MAX_STEPS = 8;

/**
 * The first whole millisecond after `after` at which `holds` is true, given an estimate of it, or
 * null when there is none near the estimate. `holds` must be monotone (false, then true forever);
 * the estimate is off by floating-point rounding only, so a few steps make it exact.
 *
 * It takes at most 2 × MAX_STEPS + 2 looks whatever it is given: past 2^53 a double has no
 * millisecond steps (`t + 1 === t`), so an instant that far (a setting of 1e13 seconds, a stored
 * 1e300) is "never" — null — rather than a walk that cannot move.
 */
export function firstMillisecondAfter(after: number, estimate: number, holds: (t: number) => boolean): number | null {
  if (Number.isNaN(after) || !Number.isFinite(estimate)) return null;
  if (!(Math.abs(estimate) <= Number.MAX_SAFE_INTEGER) || !(after < Number.MAX_SAFE_INTEGER)) return null;
  let t = Math.max(Math.ceil(estimate), Math.floor(after) + 1);
  if (!Number.isSafeInteger(t)) return null;
  for (let step = 0; step < MAX_STEPS && !holds(t); step++) t++;
  if (!holds(t)) return null;
  for (let step = 0; step < MAX_STEPS && t - 1 > after && holds(t - 1); step++) t--;
  return t;
}

/** The first whole millisecond after `now` at which `seconds` have elapsed since `since`, or null. */
export const elapsesAt = (since: number, seconds: number, now: number): number | null =>
  firstMillisecondAfter(now, since + seconds * 1000, (t) => hasElapsed(since, t, seconds));

/** The earliest of some instants, null when there is none. */
export function earliest(instants: readonly (number | null)[]): number | null {
  let first: number | null = null;
  for (const t of instants) if (t !== null && (first === null || t < first)) first = t;
  return first;
}

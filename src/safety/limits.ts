/**
 * Rolling dose limits (docs/api.md §14, §15). A dose is inside a window of N seconds while fewer
 * than N seconds have passed since it was taken: a dose exactly 60 minutes old has left the hour.
 * A dose with a missing time, or from the future, stays inside (fail closed). A limit holds a pump
 * when *one more dose would break it*:
 *   doses in the last hour + 1 > max_doses_per_hour;
 *   run seconds in the last 24 h + activation_duration > max_seconds_per_day;
 *   ml in the last 24 h + activation_duration × flow_ml_per_s > max_ml_per_day (only with a flow).
 * null turns a limit off.
 */
import { earliest, elapsesAt, hasElapsed } from './instants.js';
import type { ActuatorSafetySettings, DoseRecord } from './inputs.js';

export const HOUR_SECONDS = 3600;
export const DAY_SECONDS = 86_400;

export type LimitKind = 'doses' | 'seconds' | 'ml';
export const LIMIT_KINDS: readonly LimitKind[] = ['doses', 'seconds', 'ml'];

export type LimitSettings = Pick<
  ActuatorSafetySettings,
  'activation_duration' | 'max_doses_per_hour' | 'max_seconds_per_day' | 'max_ml_per_day' | 'flow_ml_per_s'
>;

export const isInWindow = (activatedAt: number, at: number, windowSeconds: number): boolean => !hasElapsed(activatedAt, at, windowSeconds);

const within = (doses: readonly DoseRecord[], at: number, windowSeconds: number) =>
  doses.filter((d) => isInWindow(d.activated_at, at, windowSeconds));

export const dosesInLastHour = (doses: readonly DoseRecord[], at: number): number => within(doses, at, HOUR_SECONDS).length;

export const secondsInLastDay = (doses: readonly DoseRecord[], at: number): number =>
  within(doses, at, DAY_SECONDS).reduce((sum, d) => sum + d.duration, 0);

/**
 * A dose recorded without a volume (no flow then) counts at today's flow, or 0 without one. A
 * stored volume that is not a finite number (an edited file) is not known: it counts as Infinity,
 * so the daily ml limit holds the pump back rather than let -Infinity or NaN free it.
 */
const mlOf = (dose: DoseRecord, flowMlPerS: number | null): number => {
  if (dose.volume_ml === null) return flowMlPerS === null ? 0 : dose.duration * flowMlPerS;
  return Number.isFinite(dose.volume_ml) ? dose.volume_ml : Infinity;
};

export const mlInLastDay = (doses: readonly DoseRecord[], at: number, flowMlPerS: number | null): number =>
  within(doses, at, DAY_SECONDS).reduce((sum, d) => sum + mlOf(d, flowMlPerS), 0);

/** Whether one more dose at `at` would break the limit of this kind. */
export function limitBinds(kind: LimitKind, settings: LimitSettings, doses: readonly DoseRecord[], at: number): boolean {
  switch (kind) {
    case 'doses':
      return settings.max_doses_per_hour !== null && !(dosesInLastHour(doses, at) + 1 <= settings.max_doses_per_hour);
    case 'seconds':
      return (
        settings.max_seconds_per_day !== null &&
        !(secondsInLastDay(doses, at) + settings.activation_duration <= settings.max_seconds_per_day)
      );
    case 'ml': {
      const flow = settings.flow_ml_per_s;
      if (settings.max_ml_per_day === null || flow === null) return false;
      return !(mlInLastDay(doses, at, flow) + settings.activation_duration * flow <= settings.max_ml_per_day);
    }
  }
}

/** The limits one more dose would break at `at`, in the order a status names them. */
export const bindingLimits = (settings: LimitSettings, doses: readonly DoseRecord[], at: number): LimitKind[] =>
  LIMIT_KINDS.filter((kind) => limitBinds(kind, settings, doses, at));

/** The instant after `now` at which a dose leaves a window, or null if it never does (no time). */
export const leavesWindowAt = (dose: DoseRecord, windowSeconds: number, now: number): number | null =>
  elapsesAt(dose.activated_at, windowSeconds, now);

/**
 * The first instant after `now` at which the limit of this kind stops binding as doses leave
 * their window, or null: it does not bind now, or it never frees (one dose alone breaks it, or a
 * dose without a time). Judged with `limitBinds` itself at each instant a dose leaves, so the
 * answer is exactly where the decision changes.
 */
export function limitFreesAt(kind: LimitKind, settings: LimitSettings, doses: readonly DoseRecord[], now: number): number | null {
  if (!limitBinds(kind, settings, doses, now)) return null;
  const windowSeconds = kind === 'doses' ? HOUR_SECONDS : DAY_SECONDS;
  const instants = within(doses, now, windowSeconds)
    .map((d) => leavesWindowAt(d, windowSeconds, now))
    .filter((t): t is number => t !== null)
    .sort((a, b) => a - b);
  for (const t of instants) if (!limitBinds(kind, settings, doses, t)) return t;
  return null;
}

/** The first instant after `now` at which any limit binding now frees (a status naming it changes). */
export const anyLimitFreesAt = (settings: LimitSettings, doses: readonly DoseRecord[], now: number): number | null =>
  earliest(LIMIT_KINDS.map((kind) => limitFreesAt(kind, settings, doses, now)));

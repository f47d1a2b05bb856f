import type { Thresholds } from '../domain/thresholds.js';
import type { AlertKind, AlertSeverity, Level } from '../domain/alert.js';
import { kindOf, severityOf, valueLevel } from './levels.js';

/** What the transitions need of an active alert. */
export interface ActiveAlert {
  alert_id: number;
  kind: AlertKind;
  severity: AlertSeverity;
  peak: number | null;
  last_value: number | null;
}

/**
 * A sensor's level as last evaluated, since when it has been back at `ok` with an alert still
 * active, and since when it has stayed short of critical with a critical alert still active.
 */
export interface LevelState {
  level: Level | null;
  /** A clear is pending from this instant (null: none). */
  okSince: number | null;
  /** A de-escalation (critical → warning) is pending from this instant (null: none). */
  calmSince: number | null;
}

/** What an evaluation found: the level of the newest measurement, its value, other values seen since the last evaluation. */
export interface Observation {
  level: Level | null;
  /** The newest value; absent when the sensor is stale or has no measurement. */
  value?: number;
  /** Values that were the newest in between (their extremes suffice): they count toward the peak. */
  seen?: readonly number[];
  /** For a stale sensor: the instant it turned stale (its ok lasted until then). */
  staleSince?: number;
  /** The sensor is stuck now (§14): its newest readings repeat one value for `stuck_after`. */
  stuck?: boolean;
}

export type AlertAction =
  | { type: 'raise'; kind: AlertKind; severity: AlertSeverity; value: number | null; peak: number | null }
  | { type: 'escalate'; alertId: number; severity: AlertSeverity; lastValue: number | null; peak: number | null }
  | { type: 'update'; alertId: number; lastValue: number | null; peak: number | null }
  | { type: 'clear'; alertId: number; lastValue: number | null; peak: number | null };

/** Whether a value lies on the alert's side of its threshold (a value equal to the threshold does not). */
function beyond(kind: AlertKind, value: number, t: Thresholds): boolean {
  if (kind === 'high') return value > t.threshold_high;
  if (kind === 'low') return value < t.threshold_low;
  return false;
}

/** The furthest of the known peak and the values beyond the alert's threshold. */
function peakOf(kind: AlertKind, peak: number | null, values: readonly number[], t: Thresholds): number | null {
  let out = peak;
  for (const v of values) {
    if (!beyond(kind, v, t)) continue;
    if (out === null || (kind === 'high' ? v > out : v < out)) out = v;
  }
  return out;
}

/** A low/high alert: the ones with a side, a peak and a de-escalation. An invalid alert is critical while it lasts. */
const hasSide = (a: Pick<ActiveAlert, 'kind'>) => a.kind === 'low' || a.kind === 'high';

/** Whether a value is at a critical level, on either side. */
const isCritical = (value: number, t: Thresholds) => severityOf(valueLevel(value, t)) === 'critical';

/**
 * The alert lifecycle of one sensor (docs/api.md §11), as a pure step from what is stored to what was
 * observed at `now`:
 * - leaving `ok` raises one alert of the level's kind, `critical` for the critical levels; reaching
 *   a critical level escalates the same alert to `critical` at once;
 * - back short of critical (the warning level of the alert's side, or `ok`), a critical alert
 *   de-escalates to `warning` only once the sensor has stayed short of critical for `clearAfterMs`
 *   (the same hysteresis as the clear: a value wavering across the critical threshold changes
 *   nothing); a critical value meanwhile, newest or seen in between, starts the wait over; when the
 *   clear falls due at the same time, the alert just clears;
 * - crossing straight from one side to the other clears the alert of the side it left at once
 *   (the sensor is no longer there) and raises the other;
 * - back at `ok`, the low/high alerts clear only once the level has stayed `ok` for `clearAfterMs`
 *   (a value wavering across a threshold keeps its one alert); leaving `ok` meanwhile starts over;
 * - `stale` raises a stale alert (warning), which clears with the next measurement; the low/high
 *   alerts stay as they were while nothing new is known.
 * - `invalid` (a value outside the valid range, §14) is a level like low and high: it raises a
 *   critical invalid alert, which clears once the value has been back at `ok` for `clearAfterMs`.
 * - `stuck` (§14) raises a stuck alert (warning) beside the others, which clears with the first
 *   measurement that is not stuck any more.
 * While an alert is active its `last_value` follows the newest value and its `peak` the furthest
 * value beyond its threshold.
 */
export function transition(
  state: LevelState,
  active: readonly ActiveAlert[],
  observed: Observation,
  thresholds: Thresholds,
  now: number,
  clearAfterMs: number,
): { state: LevelState; actions: AlertAction[] } {
  const actions: AlertAction[] = [];
  const { level, value } = observed;
  const values = value === undefined ? [] : [value, ...(observed.seen ?? [])];
  const stale = active.find((a) => a.kind === 'stale');
  const stuck = active.find((a) => a.kind === 'stuck');
  const onValue = active.filter((a) => a.kind !== 'stale' && a.kind !== 'stuck');

  if (level === 'stale') {
    // Back at ok, or short of critical, long enough before it went quiet (what fell due while no process ran): done first.
    const quietSince = observed.staleSince ?? now;
    const clearDue = state.level === 'ok' && state.okSince !== null && quietSince - state.okSince >= clearAfterMs;
    const calmDue = state.calmSince !== null && quietSince - state.calmSince >= clearAfterMs;
    for (const alert of onValue) {
      const { alert_id: alertId, last_value: lastValue, peak } = alert;
      if (clearDue) actions.push({ type: 'clear', alertId, lastValue, peak });
      else if (calmDue && alert.severity === 'critical' && hasSide(alert))
        actions.push({ type: 'escalate', alertId, severity: 'warning', lastValue, peak });
    }
    if (!stale) actions.push({ type: 'raise', kind: 'stale', severity: 'warning', value: null, peak: null });
    return { state: { level, okSince: null, calmSince: null }, actions };
  }
  // Anything but stale means a measurement came (or none is left): the stale alert is over.
  if (stale) actions.push({ type: 'clear', alertId: stale.alert_id, lastValue: null, peak: null });
  if (level === null || value === undefined) return { state: { ...state, level }, actions };
  if (observed.stuck && !stuck) actions.push({ type: 'raise', kind: 'stuck', severity: 'warning', value, peak: null });
  if (!observed.stuck && stuck) actions.push({ type: 'clear', alertId: stuck.alert_id, lastValue: value, peak: stuck.peak });

  const kind = kindOf(level);
  // Short of critical now: the de-escalation's wait goes on, or starts now if it was critical in between (a value seen since the last evaluation).
  const calmSince = isCritical(value, thresholds) ? null : values.some((v) => isCritical(v, thresholds)) ? now : (state.calmSince ?? now);
  const calmDue = calmSince !== null && now - calmSince >= clearAfterMs;
  let stillCritical = false;
  for (const alert of onValue) {
    const peak = peakOf(alert.kind, alert.peak, values, thresholds);
    const { alert_id: alertId } = alert;
    if (kind !== undefined && alert.kind !== kind) {
      actions.push({ type: 'clear', alertId, lastValue: value, peak });
    } else if (alert.severity === 'warning' && severityOf(level) === 'critical') {
      actions.push({ type: 'escalate', alertId, severity: 'critical', lastValue: value, peak });
    } else if (alert.severity === 'critical' && calmDue && hasSide(alert)) {
      actions.push({ type: 'escalate', alertId, severity: 'warning', lastValue: value, peak });
    } else {
      stillCritical ||= alert.severity === 'critical' && hasSide(alert);
      if (peak !== alert.peak || value !== alert.last_value) actions.push({ type: 'update', alertId, lastValue: value, peak });
    }
  }
  // The wait is kept only while a critical alert awaits it.
  const pendingCalm = stillCritical ? calmSince : null;
  if (kind !== undefined) {
    if (!onValue.some((a) => a.kind === kind)) {
      actions.push({ type: 'raise', kind, severity: severityOf(level), value, peak: peakOf(kind, null, values, thresholds) });
    }
    return { state: { level, okSince: null, calmSince: pendingCalm }, actions };
  }

  // Back at ok.
  if (onValue.length === 0) return { state: { level, okSince: null, calmSince: null }, actions };
  const okSince = state.level === 'ok' && state.okSince !== null ? state.okSince : now;
  if (now - okSince < clearAfterMs) return { state: { level, okSince, calmSince: pendingCalm }, actions };
  // The clear is due: it replaces what this step would have done to the alerts (a de-escalation due at once too included).
  const cleared = new Set(onValue.map((a) => a.alert_id));
  const rest = actions.filter((a) => !((a.type === 'update' || a.type === 'escalate') && cleared.has(a.alertId)));
  for (const alert of onValue) {
    rest.push({ type: 'clear', alertId: alert.alert_id, lastValue: value, peak: alert.peak });
  }
  return { state: { level, okSince: null, calmSince: null }, actions: rest };
}

/**
 * When time alone next changes the sensor's alerts: the instant its newest measurement turns
 * stale, the instant it turns stuck, the instant its `ok` has lasted `clearAfterMs` while a low/high alert is active, or the
 * instant it has stayed short of critical for `clearAfterMs` while a critical low/high alert is.
 */
export function nextCheckAt(
  state: LevelState,
  newestTimestamp: number | undefined,
  active: readonly Pick<ActiveAlert, 'kind' | 'severity'>[],
  staleAt: (timestamp: number) => number,
  clearAfterMs: number,
  /** When the sensor turns stuck, if time alone will make it so (§14). */
  stuckAt?: number | null,
): number | undefined {
  const instants: number[] = [];
  const valueAlerts = active.filter((a) => a.kind !== 'stale' && a.kind !== 'stuck');
  const known = state.level !== 'stale' && state.level !== null;
  if (newestTimestamp !== undefined && known) instants.push(staleAt(newestTimestamp));
  if (state.level === 'ok' && state.okSince !== null && valueAlerts.length > 0) instants.push(state.okSince + clearAfterMs);
  if (known && stuckAt !== undefined && stuckAt !== null) instants.push(stuckAt);
  if (known && state.calmSince !== null && valueAlerts.some((a) => a.severity === 'critical' && hasSide(a))) {
    instants.push(state.calmSince + clearAfterMs);
  }
  return instants.length > 0 ? Math.min(...instants) : undefined;
}

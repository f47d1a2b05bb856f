import type { Thresholds } from '../domain/thresholds.js';
import type { AlertKind, AlertSeverity, Level } from '../schemas/alerts.js';
import { kindOf, severityOf } from './levels.js';

/** What the transitions need of an active alert. */
export interface ActiveAlert {
  alert_id: number;
  kind: AlertKind;
  severity: AlertSeverity;
  peak: number | null;
  last_value: number | null;
}

/** A sensor's level as last evaluated, and since when it has been back at `ok` with an alert still active. */
export interface LevelState {
  level: Level | null;
  okSince: number | null;
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

/**
 * The alert lifecycle of one sensor (API.md §11), as a pure step from what is stored to what was
 * observed at `now`:
 * - leaving `ok` raises one alert of the level's kind, `critical` for the critical levels; moving
 *   between warning and critical changes the same alert's severity (`escalate`, either way);
 * - crossing straight from one side to the other clears the alert of the side it left at once
 *   (the sensor is no longer there) and raises the other;
 * - back at `ok`, the low/high alerts clear only once the level has stayed `ok` for `clearAfterMs`
 *   (a value wavering across a threshold keeps its one alert); leaving `ok` meanwhile starts over;
 * - `stale` raises a stale alert (warning), which clears with the next measurement; the low/high
 *   alerts stay as they were while nothing new is known.
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
  const onValue = active.filter((a) => a.kind !== 'stale');

  if (level === 'stale') {
    // Back at ok long enough before it went quiet (a clear that fell due while no process ran): cleared first.
    const okUntil = observed.staleSince ?? now;
    if (state.level === 'ok' && state.okSince !== null && okUntil - state.okSince >= clearAfterMs) {
      for (const alert of onValue) actions.push({ type: 'clear', alertId: alert.alert_id, lastValue: alert.last_value, peak: alert.peak });
    }
    if (!stale) actions.push({ type: 'raise', kind: 'stale', severity: 'warning', value: null, peak: null });
    return { state: { level, okSince: null }, actions };
  }
  // Anything but stale means a measurement came (or none is left): the stale alert is over.
  if (stale) actions.push({ type: 'clear', alertId: stale.alert_id, lastValue: null, peak: null });
  if (level === null || value === undefined) return { state: { level, okSince: state.okSince }, actions };

  const kind = kindOf(level);
  for (const alert of onValue) {
    const peak = peakOf(alert.kind, alert.peak, values, thresholds);
    if (kind !== undefined && alert.kind !== kind) {
      actions.push({ type: 'clear', alertId: alert.alert_id, lastValue: value, peak });
    } else if (kind !== undefined && severityOf(level) !== alert.severity) {
      actions.push({ type: 'escalate', alertId: alert.alert_id, severity: severityOf(level), lastValue: value, peak });
    } else if (peak !== alert.peak || value !== alert.last_value) {
      actions.push({ type: 'update', alertId: alert.alert_id, lastValue: value, peak });
    }
  }
  if (kind !== undefined) {
    if (!onValue.some((a) => a.kind === kind)) {
      actions.push({ type: 'raise', kind, severity: severityOf(level), value, peak: peakOf(kind, null, values, thresholds) });
    }
    return { state: { level, okSince: null }, actions };
  }

  // Back at ok.
  if (onValue.length === 0) return { state: { level, okSince: null }, actions };
  const okSince = state.level === 'ok' && state.okSince !== null ? state.okSince : now;
  if (now - okSince < clearAfterMs) return { state: { level, okSince }, actions };
  const cleared = new Set(onValue.map((a) => a.alert_id));
  const rest = actions.filter((a) => !(a.type === 'update' && cleared.has(a.alertId)));
  for (const alert of onValue) {
    rest.push({ type: 'clear', alertId: alert.alert_id, lastValue: value, peak: alert.peak });
  }
  return { state: { level, okSince: null }, actions: rest };
}

/**
 * When time alone next changes the sensor's alerts: the instant its newest measurement turns
 * stale, or the instant its `ok` has lasted `clearAfterMs` while a low/high alert is active.
 */
export function nextCheckAt(
  state: LevelState,
  newestTimestamp: number | undefined,
  hasValueAlert: boolean,
  staleAt: (timestamp: number) => number,
  clearAfterMs: number,
): number | undefined {
  const instants: number[] = [];
  if (newestTimestamp !== undefined && state.level !== 'stale' && state.level !== null) instants.push(staleAt(newestTimestamp));
  if (state.level === 'ok' && state.okSince !== null && hasValueAlert) instants.push(state.okSince + clearAfterMs);
  return instants.length > 0 ? Math.min(...instants) : undefined;
}

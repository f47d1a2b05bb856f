import type { Repositories, StoredAlert, StoredMeasurement, Store } from '../store/index.js';
import { type AlertNews, alertOf } from './alert-json.js';
import type { EqualRun } from '../safety/inputs.js';
import { isStuckRun, stuckAt } from '../safety/stuck.js';
import { sensorLevel, staleAt } from './levels.js';
import { enqueueNotifications } from './outbox.js';
import { type ActiveAlert, type AlertAction, type LevelState, nextCheckAt, transition } from './transitions.js';
import { type SensorLimits, thresholdsOf } from './watched.js';

export interface EvaluationSettings {
  staleAfterMs: number;
  clearAfterMs: number;
  webhookUrls: readonly string[];
}

/** A sensor's alerts after an evaluation, as committed. */
export interface Evaluation {
  /** False when the sensor no longer exists. */
  exists: boolean;
  /** True when the evaluation was skipped: another process is evaluating the sensor (see `skipIfBusy`). */
  busy?: boolean;
  prototypeId: number;
  /** The sensor's thresholds as read by the evaluation. */
  thresholds: SensorLimits | undefined;
  state: LevelState;
  newest: StoredMeasurement | undefined;
  /** The run of equal newest readings, when the sensor has `stuck_after`. */
  run: EqualRun | null;
  active: ActiveAlert[];
  /** The events the evaluation caused, to publish once committed. */
  events: AlertNews[];
  /** When time alone next changes this sensor's alerts. */
  nextCheckAt: number | undefined;
}

async function apply(tx: Repositories, action: AlertAction, sensorId: number, now: number): Promise<AlertNews['event'] | undefined> {
  switch (action.type) {
    case 'raise':
      await tx.alerts.raise({
        sensor_id: sensorId,
        kind: action.kind,
        severity: action.severity,
        raised_at: now,
        value: action.value,
        peak: action.peak,
      });
      return 'raised';
    case 'escalate':
      await tx.alerts.change(action.alertId, { severity: action.severity, last_value: action.lastValue, peak: action.peak });
      return 'escalated';
    case 'update':
      await tx.alerts.followValue(action.alertId, action.lastValue, action.peak);
      return undefined;
    case 'clear':
      await tx.alerts.change(action.alertId, {
        state: 'cleared',
        cleared_at: now,
        ...(action.lastValue === null ? {} : { last_value: action.lastValue, peak: action.peak }),
      });
      return 'cleared';
  }
}

/**
 * Evaluates one sensor's alerts from what is committed, in one transaction: its sensor row is
 * kept from deletion and its level row locked first, so evaluations of one sensor take turns across processes and each sees the
 * measurements committed before it. Evaluating twice changes nothing the second time, so it does
 * not matter which process, or how many, evaluate the same change.
 */
export async function evaluateSensor(
  store: Pick<Store, 'transaction'>,
  sensorId: number,
  now: number,
  settings: EvaluationSettings,
  seen: readonly number[] = [],
  /** A time-driven check: skipped where another process is evaluating the sensor already. */
  skipIfBusy = false,
): Promise<Evaluation> {
  return store.transaction(async (tx) => {
    // The sensor first, kept from deletion: the level and alert rows written below then never
    // refer to a sensor deleted meanwhile, and a delete (which locks the sensor first) waits.
    const sensor = await tx.sensors.getKept(sensorId);
    const nothing: Evaluation = {
      exists: false,
      prototypeId: -1,
      thresholds: undefined,
      state: { level: null, okSince: null, calmSince: null },
      newest: undefined,
      run: null,
      active: [],
      events: [],
      nextCheckAt: undefined,
    };
    if (!sensor) return nothing;
    const stored = await tx.alerts.lockLevel(sensorId, skipIfBusy);
    if (!stored) return { ...nothing, exists: true, busy: true };
    const newest = await tx.measurements.last(sensorId);
    const before = await tx.alerts.activeLevelAlerts(sensorId);
    const limits = thresholdsOf(sensor);
    const level = sensorLevel(newest, sensor, now, settings.staleAfterMs, { range: limits.range });
    const value = level === null || level === 'stale' ? undefined : newest?.value;
    const run = limits.stuckAfter === null ? null : await tx.measurements.equalRun(sensorId);
    const stuck = newest !== undefined && isStuckRun(run, limits.stuckAfter, now);
    const { state, actions } = transition(
      { level: stored.level, okSince: stored.ok_since, calmSince: stored.calm_since },
      before,
      { level, value, seen, stuck, staleSince: level === 'stale' && newest ? staleAt(newest.timestamp, settings.staleAfterMs) : undefined },
      sensor,
      now,
      settings.clearAfterMs,
    );
    const touched: { alertId: number; event: AlertNews['event'] }[] = [];
    for (const action of actions) {
      const event = await apply(tx, action, sensorId, now);
      if (event && action.type !== 'raise') touched.push({ alertId: action.alertId, event });
    }
    if (state.level !== stored.level || state.okSince !== stored.ok_since || state.calmSince !== stored.calm_since) {
      await tx.alerts.saveLevel(sensorId, state);
    }

    const events: AlertNews[] = [];
    let after: StoredAlert[] = before;
    if (actions.length > 0 && actions.every((action) => action.type === 'update')) {
      // Only the newest value and peak of open alerts moved (a sensor staying out of range, at
      // every reading): the rows as written, without reading them back.
      after = before.map((alert) => {
        const update = actions.find((action) => action.alertId === alert.alert_id);
        return update ? { ...alert, last_value: update.lastValue, peak: update.peak } : alert;
      });
    } else if (actions.length > 0) {
      after = await tx.alerts.activeLevelAlerts(sensorId);
      for (const { alertId, event } of touched) {
        const row = (await tx.alerts.get(alertId)) as StoredAlert;
        events.push({ event, alert: alertOf(row, sensor.prototype_id) });
      }
      const known = new Set(before.map((a) => a.alert_id));
      for (const row of after) if (!known.has(row.alert_id)) events.push({ event: 'raised', alert: alertOf(row, sensor.prototype_id) });
      await enqueueNotifications(tx.alerts, settings.webhookUrls, events, now);
    }
    return {
      exists: true,
      prototypeId: sensor.prototype_id,
      thresholds: limits,
      state,
      newest,
      run,
      active: after,
      events,
      nextCheckAt: nextCheckAt(
        state,
        newest?.timestamp,
        after,
        (t) => staleAt(t, settings.staleAfterMs),
        settings.clearAfterMs,
        newest && limits.stuckAfter !== null ? stuckAt(run, limits.stuckAfter, now) : null,
      ),
    };
  });
}

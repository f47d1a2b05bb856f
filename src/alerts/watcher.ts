import type { Thresholds } from '../domain/thresholds.js';
import type { ChangeBus } from '../events/bus.js';
import { isRelayed } from '../events/postgres-relay.js';
import type { Timers } from '../events/timers.js';
import type { Sensor } from '../schemas/sensors.js';
import type { Store, StoredMeasurement } from '../store/index.js';
import type { AlertNews } from './alert-json.js';
import { type Evaluation, type EvaluationSettings, evaluateSensor } from './evaluate.js';
import { staleAt, valueLevel } from './levels.js';
import { type ActiveAlert, type LevelState, nextCheckAt, transition } from './transitions.js';
import { sensorLevel } from './levels.js';

export interface AlertWatcherDeps {
  store: Pick<Store, 'transaction' | 'sensors' | 'measurements' | 'alerts'>;
  bus: ChangeBus;
  now: () => number;
  timers: Timers;
  settings: EvaluationSettings;
  log: { error(details: object, message: string): void; warn(details: object, message: string): void };
}

/** What this process knows of one sensor, enough to tell in memory whether a new measurement changes anything. */
interface Watched {
  prototypeId: number;
  thresholds: Thresholds;
  newest: Pick<StoredMeasurement, 'measurement_id' | 'value' | 'timestamp'> | undefined;
  state: LevelState;
  active: ActiveAlert[];
  /** Newest values between evaluations, for the peak (their extremes). */
  seen: number[];
  /** The one alarm of the sensor and its instant. */
  alarm?: { handle: unknown; at: number };
}

/** A failed evaluation is tried again after this long. */
const RETRY_MS = 5000;
/** A time-driven check another process was doing is looked at again after this long. */
const BUSY_RETRY_MS = 1000;

const isNewer = (row: Watched['newest'] & object, than: Watched['newest']) =>
  !than || row.timestamp > than.timestamp || (row.timestamp === than.timestamp && row.measurement_id > than.measurement_id);

const thresholdsOf = (s: Sensor): Thresholds => ({
  threshold_critically_low: s.threshold_critically_low,
  threshold_low: s.threshold_low,
  threshold_high: s.threshold_high,
  threshold_critically_high: s.threshold_critically_high,
});

const sameThresholds = (a: Thresholds, b: Thresholds) =>
  a.threshold_critically_low === b.threshold_critically_low &&
  a.threshold_low === b.threshold_low &&
  a.threshold_high === b.threshold_high &&
  a.threshold_critically_high === b.threshold_critically_high;

/**
 * Keeps every sensor's alerts (§11) up to date. Each committed batch costs, per sensor, a
 * comparison in memory with the newest measurement and level known here; only a change of level
 * (or a new value while an alert is active) queues an evaluation, which reads the committed rows
 * in a transaction of its own (evaluate.ts) — never awaited by the write that caused it.
 * Time-driven changes (a sensor turning stale, an alert's clear-after elapsing) come from one
 * alarm per sensor, set for the instant they are due: no sweep over all sensors.
 *
 * With several instances, the one that committed a change evaluates it; the others follow the
 * newest values and alerts in memory (for their alarms). Alarms ring on every instance, and the
 * evaluation's row lock and idempotence make the change happen once.
 */
export function alertWatcher({ store, bus, now, timers, settings, log }: AlertWatcherDeps) {
  const watched = new Map<number, Watched>();
  const queued = new Set<number>();
  /** Queued by an alarm alone: a time-driven check, which one process does for all. */
  const alarmOnly = new Set<number>();
  let running: Promise<void> | undefined;
  let stopped = false;
  const unsubscribe: (() => void)[] = [];

  function dueAt(w: Watched): number | undefined {
    return nextCheckAt(
      w.state,
      w.newest?.timestamp,
      w.active.some((a) => a.kind !== 'stale'),
      (t) => staleAt(t, settings.staleAfterMs),
      settings.clearAfterMs,
    );
  }

  /** An alarm at or before the sensor's next due instant; one that rings early is set again, in memory. */
  function arm(sensorId: number, w: Watched): void {
    if (stopped) return;
    const at = dueAt(w);
    if (at === undefined) {
      if (w.alarm) timers.clear(w.alarm.handle);
      w.alarm = undefined;
      return;
    }
    if (w.alarm && w.alarm.at <= at) return;
    setAlarm(sensorId, w, at);
  }

  /** The sensor's one alarm, at `at`: when it rings, a check that is due is queued, else it is set again. */
  function setAlarm(sensorId: number, w: Watched, at: number): void {
    if (w.alarm) timers.clear(w.alarm.handle);
    const alarm = {
      at,
      handle: timers.set(() => {
        if (w.alarm !== alarm) return;
        w.alarm = undefined;
        const due = dueAt(w);
        if (due !== undefined && due <= now()) enqueue(sensorId, true);
        else arm(sensorId, w);
      }, at - now()),
    };
    w.alarm = alarm;
  }

  /** Queues an evaluation; one that only an alarm asked for is skipped where another process is doing it. */
  function enqueue(sensorId: number, byAlarm = false): void {
    if (stopped) return;
    if (!byAlarm) alarmOnly.delete(sensorId);
    else if (!queued.has(sensorId)) alarmOnly.add(sensorId);
    queued.add(sensorId);
    running ??= drain();
  }

  async function drain(): Promise<void> {
    // Let the write that queued the work answer first.
    await new Promise((resolve) => setImmediate(resolve));
    while (!stopped && queued.size > 0) {
      const sensorId = queued.values().next().value as number;
      queued.delete(sensorId);
      await evaluate(sensorId, alarmOnly.delete(sensorId));
    }
    running = undefined;
  }

  async function evaluate(sensorId: number, skipIfBusy: boolean): Promise<void> {
    const w = watched.get(sensorId);
    const seen = w ? w.seen : [];
    if (w) w.seen = [];
    let result: Evaluation;
    try {
      result = await evaluateOnce(sensorId, seen, skipIfBusy);
    } catch (error) {
      log.error({ err: error, sensorId }, 'evaluating the alerts of a sensor failed; trying again shortly');
      if (w) w.seen.push(...seen);
      timers.set(() => enqueue(sensorId), RETRY_MS);
      return;
    }
    if (!result.exists) {
      forget(sensorId);
      return;
    }
    if (result.busy) {
      // Another process is checking this sensor now; its alert events will tell. Looked at again later in case they do not.
      if (w) setAlarm(sensorId, w, now() + BUSY_RETRY_MS);
      return;
    }
    // A sensor not known here yet (created on another instance, its news not arrived): known from now on.
    const entry = watched.get(sensorId) ?? track(sensorId, result.prototypeId, result.thresholds as Thresholds);
    if (result.newest && isNewer(result.newest, entry.newest)) entry.newest = result.newest;
    entry.state = result.state;
    entry.active = result.active;
    for (const news of result.events) bus.publish('alert', news);
    arm(sensorId, entry);
  }

  /** One evaluation; a clash on "one active alert per sensor and kind" means another process raised it: evaluate again. */
  async function evaluateOnce(sensorId: number, seen: readonly number[], skipIfBusy: boolean): Promise<Evaluation> {
    try {
      return await evaluateSensor(store, sensorId, now(), settings, seen, skipIfBusy);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      return evaluateSensor(store, sensorId, now(), settings, seen);
    }
  }

  function track(sensorId: number, prototypeId: number, thresholds: Thresholds): Watched {
    const w: Watched = { prototypeId, thresholds, newest: undefined, state: { level: null, okSince: null }, active: [], seen: [] };
    watched.set(sensorId, w);
    return w;
  }

  function forget(sensorId: number): void {
    const w = watched.get(sensorId);
    if (w?.alarm) timers.clear(w.alarm.handle);
    watched.delete(sensorId);
    queued.delete(sensorId);
  }

  function measured(rows: readonly StoredMeasurement[], relayed: boolean): void {
    // Most batches are one sensor's (most of one row): its newest row is found without a map.
    const first = rows[0];
    if (!first) return;
    let newest = first;
    let oneSensor = true;
    for (let i = 1; i < rows.length; i++) {
      const row = rows[i];
      if (row.sensor_id !== first.sensor_id) {
        oneSensor = false;
        break;
      }
      if (isNewer(row, newest)) newest = row;
    }
    if (oneSensor) return newestMeasured(newest, relayed);
    // A few sensors (a device posting its probes together): a short list beats a map.
    const few: StoredMeasurement[] = [];
    let byId: Map<number, StoredMeasurement> | undefined;
    for (const row of rows) {
      if (byId) {
        const known = byId.get(row.sensor_id);
        if (!known || isNewer(row, known)) byId.set(row.sensor_id, row);
        continue;
      }
      let k = 0;
      while (k < few.length && few[k].sensor_id !== row.sensor_id) k++;
      if (k === few.length) few.push(row);
      else if (isNewer(row, few[k])) few[k] = row;
      if (few.length > 16) byId = new Map(few.map((r) => [r.sensor_id, r]));
    }
    for (const row of byId ? byId.values() : few) newestMeasured(row, relayed);
  }

  /** One sensor's newest row of a committed batch: compared in memory; an evaluation only when something changes. */
  function newestMeasured(row: StoredMeasurement, relayed: boolean): void {
    const sensorId = row.sensor_id;
    const w = watched.get(sensorId);
    if (!w) {
      if (!relayed) enqueue(sensorId);
      return;
    }
    // A batch of older readings does not move the newest: nothing changes.
    if (!isNewer(row, w.newest)) return;
    w.newest = row;
    const level = valueLevel(row.value, w.thresholds);
    if (relayed) {
      // The committing instance evaluates; this one follows, for its alarms (a clear may now fall due first).
      if (level !== w.state.level) {
        w.state = { level, okSince: level === 'ok' ? now() : null };
        return arm(sensorId, w);
      }
    } else if (level !== w.state.level || w.active.some((a) => a.last_value !== row.value)) {
      w.seen.push(row.value);
      if (w.seen.length > 2) w.seen = [Math.min(...w.seen), Math.max(...w.seen)];
      enqueue(sensorId);
    }
    // An alarm set is at or before the new stale instant (which only moves later); it is set again when it rings.
    if (!w.alarm) arm(sensorId, w);
  }

  /** Alert events, from this instance or another: the active alerts known here follow them. */
  function heard({ event, alert }: AlertNews): void {
    const w = watched.get(alert.sensor_id);
    if (!w || event === 'acknowledged') return;
    const rest = w.active.filter((a) => a.alert_id !== alert.alert_id);
    w.active = alert.state === 'active' ? [...rest, alert] : rest;
    // What another process's time-driven check found: the level it stored follows.
    if (event === 'raised' && alert.kind === 'stale') w.state = { level: 'stale', okSince: null };
    if (!w.active.some((a) => a.kind !== 'stale')) w.state = { ...w.state, okSince: null };
    arm(alert.sensor_id, w);
  }

  return {
    /** Reads the sensors, their newest measurements, levels and active alerts; evaluates what changed while stopped. */
    async start(): Promise<void> {
      unsubscribe.push(
        bus.subscribe('measurements', (change) => measured(change.rows, isRelayed(change))),
        bus.subscribe('measurementDeleted', ({ measurement }) => {
          const w = watched.get(measurement.sensor_id);
          if (w?.newest?.measurement_id === measurement.measurement_id) {
            w.newest = undefined;
            enqueue(measurement.sensor_id);
          }
        }),
        bus.subscribe('generated', (change) => {
          for (const sensorId of change.sensorIds) {
            const w = watched.get(sensorId);
            if (w) w.newest = undefined;
            if (!isRelayed(change)) enqueue(sensorId);
          }
        }),
        bus.subscribe('sensor', (change) => {
          if (change.action === 'deleted') return forget(change.sensorId);
          const { sensor } = change;
          const w = watched.get(sensor.sensor_id);
          if (!w) return void track(sensor.sensor_id, sensor.prototype_id, thresholdsOf(sensor));
          w.prototypeId = sensor.prototype_id;
          if (sameThresholds(w.thresholds, thresholdsOf(sensor))) return;
          w.thresholds = thresholdsOf(sensor);
          if (!isRelayed(change)) enqueue(sensor.sensor_id);
        }),
        bus.subscribe('prototype', (change) => {
          if (change.action !== 'deleted') return;
          for (const [sensorId, w] of watched) if (w.prototypeId === change.prototypeId) forget(sensorId);
        }),
        bus.subscribe('alert', heard),
      );
      const [sensors, levels, active] = await Promise.all([store.sensors.list(), store.alerts.levels(), store.alerts.active()]);
      const levelOf = new Map(levels.map((l) => [l.sensor_id, l]));
      const newest = await Promise.all(sensors.map((s) => store.measurements.last(s.sensor_id)));
      const at = now();
      sensors.forEach((sensor, i) => {
        if (watched.has(sensor.sensor_id)) return;
        const w = track(sensor.sensor_id, sensor.prototype_id, thresholdsOf(sensor));
        const stored = levelOf.get(sensor.sensor_id);
        w.newest = newest[i];
        w.state = { level: stored?.level ?? null, okSince: stored?.ok_since ?? null };
        w.active = active.filter((a) => a.sensor_id === sensor.sensor_id);
        const level = sensorLevel(w.newest, w.thresholds, at, settings.staleAfterMs);
        const value = level === null || level === 'stale' ? undefined : w.newest?.value;
        const staleSince = level === 'stale' && w.newest ? staleAt(w.newest.timestamp, settings.staleAfterMs) : undefined;
        const next = transition(w.state, w.active, { level, value, staleSince }, w.thresholds, at, settings.clearAfterMs);
        // What changed while the service was stopped (a sensor gone stale, a clear now due) is evaluated at once.
        if (next.actions.length > 0 || next.state.okSince !== w.state.okSince) enqueue(sensor.sensor_id);
        else {
          w.state = next.state;
          arm(sensor.sensor_id, w);
        }
      });
    },

    /** Resolves once the evaluations queued so far are done (tests, and a clean stop). */
    async idle(): Promise<void> {
      while (running) await running;
    },

    async stop(): Promise<void> {
      stopped = true;
      for (const stop of unsubscribe) stop();
      await running;
      for (const w of watched.values()) if (w.alarm) timers.clear(w.alarm.handle);
      watched.clear();
    },
  };
}

export type AlertWatcher = ReturnType<typeof alertWatcher>;

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/.test(e?.message ?? '');
}

import type { ChangeBus } from '../core/bus.js';
import type { Logger } from '../core/logger.js';
import type { Timers } from '../core/timers.js';
import type { Store } from '../store/index.js';
import { type Evaluation, type EvaluationSettings, evaluateSensor } from './evaluate.js';
import type { SensorAlarms } from './alarms.js';
import { isNewer, type SensorLimits, type Watched } from './watched.js';

/** A failed evaluation is tried again after this long. */
const RETRY_MS = 5000;
/** A time-driven check another process was doing is looked at again after this long. */
const BUSY_RETRY_MS = 1000;

export interface SensorEvaluationDeps {
  store: Pick<Store, 'transaction' | 'sensors' | 'measurements' | 'alerts'>;
  bus: ChangeBus;
  now: () => number;
  timers: Timers;
  settings: EvaluationSettings;
  log: Logger;
  watched: Map<number, Watched>;
  track(sensorId: number, prototypeId: number, thresholds: SensorLimits): Watched;
  forget(sensorId: number): void;
  alarms: Pick<SensorAlarms, 'arm' | 'set'>;
  enqueue(sensorId: number): void;
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/.test(e?.message ?? '');
}

/**
 * One sensor's evaluation (evaluate.ts, in a transaction of its own), and what this process then
 * knows: the sensor's level, newest value and active alerts, its alarm, and the alert events
 * published on the bus. A failure is logged and tried again shortly.
 */
export function sensorEvaluation(deps: SensorEvaluationDeps) {
  const { store, bus, now, timers, settings, log, watched, alarms } = deps;

  /** One evaluation; a clash on "one active alert per sensor and kind" means another process raised it: evaluate again. */
  async function evaluateOnce(sensorId: number, seen: readonly number[], skipIfBusy: boolean): Promise<Evaluation> {
    try {
      return await evaluateSensor(store, sensorId, now(), settings, seen, skipIfBusy);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      return evaluateSensor(store, sensorId, now(), settings, seen);
    }
  }

  return async function evaluate(sensorId: number, skipIfBusy: boolean): Promise<void> {
    const w = watched.get(sensorId);
    const seen = w ? w.seen : [];
    if (w) w.seen = [];
    let result: Evaluation;
    try {
      result = await evaluateOnce(sensorId, seen, skipIfBusy);
    } catch (error) {
      log.error({ err: error, sensorId }, 'evaluating the alerts of a sensor failed; trying again shortly');
      if (w) w.seen.push(...seen);
      timers.set(() => deps.enqueue(sensorId), RETRY_MS);
      return;
    }
    if (!result.exists) return deps.forget(sensorId);
    if (result.busy) {
      // Another process is checking this sensor now; its alert events will tell. Looked at again later in case they do not.
      if (w) alarms.set(sensorId, w, now() + BUSY_RETRY_MS);
      return;
    }
    // A sensor not known here yet (created on another instance, its news not arrived): known from now on.
    const entry = watched.get(sensorId) ?? deps.track(sensorId, result.prototypeId, result.thresholds as SensorLimits);
    if (result.newest && isNewer(result.newest, entry.newest)) entry.newest = result.newest;
    entry.state = result.state;
    entry.run = result.run;
    entry.active = result.active;
    for (const news of result.events) bus.publish('alert', news);
    alarms.arm(sensorId, entry);
  };
}

import type { Timers } from '../core/timers.js';
import type { EvaluationSettings } from './evaluate.js';
import { isStuckRun, stuckAt } from '../safety/stuck.js';
import { staleAt } from './levels.js';
import { nextCheckAt } from './transitions.js';
import type { Watched } from './watched.js';

export interface SensorAlarmsDeps {
  timers: Timers;
  now: () => number;
  settings: Pick<EvaluationSettings, 'staleAfterMs' | 'clearAfterMs'>;
  /** True once the watcher stops: no alarm is set then. */
  stopped(): boolean;
  /** A time-driven check of the sensor is due. */
  due(sensorId: number): void;
}

/** When the sensor's stuck alert falls due: the instant its run turns stuck, now when it is and has no alert yet, else null. */
function stuckDueAt(w: Watched, now: number): number | null {
  const { stuckAfter } = w.thresholds;
  if (!w.newest || stuckAfter === null) return null;
  if (!isStuckRun(w.run, stuckAfter, now)) return stuckAt(w.run, stuckAfter, now);
  return w.active.some((a) => a.kind === 'stuck') ? null : now;
}

/**
 * One alarm per sensor, set for the instant time alone next changes its alerts (a sensor turning
 * stale, a clear-after or de-escalation wait elapsing): no sweep over all sensors.
 */
export function sensorAlarms({ timers, now, settings, stopped, due }: SensorAlarmsDeps) {
  function dueAt(w: Watched): number | undefined {
    const stuck = stuckDueAt(w, now());
    return nextCheckAt(w.state, w.newest?.timestamp, w.active, (t) => staleAt(t, settings.staleAfterMs), settings.clearAfterMs, stuck);
  }

  function clear(w: Watched): void {
    if (w.alarm) timers.clear(w.alarm.handle);
    w.alarm = undefined;
  }

  /** An alarm at or before the sensor's next due instant; one that rings early is set again, in memory. */
  function arm(sensorId: number, w: Watched): void {
    if (stopped()) return;
    const at = dueAt(w);
    if (at === undefined) return clear(w);
    if (w.alarm && w.alarm.at <= at) return;
    set(sensorId, w, at);
  }

  /** The sensor's one alarm, at `at`: when it rings, a check that is due is asked for, else it is set again. */
  function set(sensorId: number, w: Watched, at: number): void {
    if (w.alarm) timers.clear(w.alarm.handle);
    const alarm = {
      at,
      handle: timers.set(() => {
        if (w.alarm !== alarm) return;
        w.alarm = undefined;
        const next = dueAt(w);
        if (next !== undefined && next <= now()) due(sensorId);
        else arm(sensorId, w);
      }, at - now()),
    };
    w.alarm = alarm;
  }

  return { arm, set, clear };
}

export type SensorAlarms = ReturnType<typeof sensorAlarms>;

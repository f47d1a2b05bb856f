import { LEVEL_ALERT_KINDS } from '../domain/alert.js';
import type { Store } from '../store/index.js';
import type { SensorAlarms } from './alarms.js';
import type { EvaluationSettings } from './evaluate.js';
import { sensorLevel, staleAt } from './levels.js';
import { transition } from './transitions.js';
import { isStuckRun } from '../safety/stuck.js';
import { type SensorLimits, thresholdsOf, type Watched } from './watched.js';

export interface WatchStartDeps {
  store: Pick<Store, 'sensors' | 'measurements' | 'alerts'>;
  now: () => number;
  settings: Pick<EvaluationSettings, 'staleAfterMs' | 'clearAfterMs'>;
  watched: Map<number, Watched>;
  track(sensorId: number, prototypeId: number, thresholds: SensorLimits): Watched;
  alarms: Pick<SensorAlarms, 'arm'>;
  enqueue(sensorId: number): void;
}

/**
 * At start: every sensor's newest measurement, stored level and active alerts are read; what
 * changed while the service was stopped (a sensor gone stale, a clear or de-escalation now due)
 * is evaluated at once, the rest waits for its alarm.
 */
export async function watchAll({ store, now, settings, watched, track, alarms, enqueue }: WatchStartDeps): Promise<void> {
  const [sensors, levels, active] = await Promise.all([
    store.sensors.list(),
    store.alerts.levels(),
    store.alerts.active(undefined, LEVEL_ALERT_KINDS),
  ]);
  const levelOf = new Map(levels.map((l) => [l.sensor_id, l]));
  const newest = await Promise.all(sensors.map((s) => store.measurements.last(s.sensor_id)));
  const runs = await Promise.all(sensors.map((s) => (s.stuck_after === null ? null : store.measurements.equalRun(s.sensor_id))));
  const at = now();
  sensors.forEach((sensor, i) => {
    if (watched.has(sensor.sensor_id)) return;
    const w = track(sensor.sensor_id, sensor.prototype_id, thresholdsOf(sensor));
    const stored = levelOf.get(sensor.sensor_id);
    w.newest = newest[i];
    w.run = runs[i];
    w.state = { level: stored?.level ?? null, okSince: stored?.ok_since ?? null, calmSince: stored?.calm_since ?? null };
    w.active = active.filter((a) => a.sensor_id === sensor.sensor_id);
    const level = sensorLevel(w.newest, w.thresholds, at, settings.staleAfterMs, { range: w.thresholds.range });
    const value = level === null || level === 'stale' ? undefined : w.newest?.value;
    const staleSince = level === 'stale' && w.newest ? staleAt(w.newest.timestamp, settings.staleAfterMs) : undefined;
    const stuck = w.newest !== undefined && isStuckRun(w.run, w.thresholds.stuckAfter, at);
    const next = transition(w.state, w.active, { level, value, staleSince, stuck }, w.thresholds, at, settings.clearAfterMs);
    const waitsMoved = next.state.okSince !== w.state.okSince || next.state.calmSince !== w.state.calmSince;
    if (next.actions.length > 0 || waitsMoved) enqueue(sensor.sensor_id);
    else {
      w.state = next.state;
      alarms.arm(sensor.sensor_id, w);
    }
  });
}

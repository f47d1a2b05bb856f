import { isLevelAlertKind } from '../domain/alert.js';
import type { Sensor } from '../domain/sensor.js';
import type { StoredMeasurement } from '../store/index.js';
import type { AlertNews } from './alert-json.js';
import type { SensorAlarms } from './alarms.js';
import { isStuckRun } from '../safety/stuck.js';
import { readingLevel, severityOf } from './levels.js';
import { isNewer, runAfter, sameThresholds, type SensorLimits, thresholdsOf, type Watched } from './watched.js';

export interface FollowingDeps {
  now: () => number;
  watched: Map<number, Watched>;
  track(sensorId: number, prototypeId: number, thresholds: SensorLimits): Watched;
  forget(sensorId: number): void;
  alarms: Pick<SensorAlarms, 'arm'>;
  enqueue(sensorId: number): void;
}

/**
 * What the bus reports, followed in memory: a change that may move a sensor's alerts queues its
 * evaluation when this process committed it; one relayed from another instance (which evaluates
 * it) only moves what is known here, for the alarms.
 */
export function following({ now, watched, track, forget, alarms, enqueue }: FollowingDeps) {
  return {
    /** One sensor's newest row of a committed batch: compared in memory; an evaluation only when something changes. */
    newestMeasured(row: StoredMeasurement, relayed: boolean): void {
      const sensorId = row.sensor_id;
      const w = watched.get(sensorId);
      if (!w) {
        if (!relayed) enqueue(sensorId);
        return;
      }
      // A batch of older readings does not move the newest: nothing changes.
      if (!isNewer(row, w.newest)) return;
      // A stuck alert clears with the first differing value; a run growing may make the sensor stuck later (its alarm).
      const unstuck = w.newest !== undefined && w.newest.value !== row.value && w.active.some((a) => a.kind === 'stuck');
      if (w.thresholds.stuckAfter !== null) w.run = runAfter(w.run, w.newest, row);
      w.newest = row;
      const stuckNow = isStuckRun(w.run, w.thresholds.stuckAfter, now()) && !w.active.some((a) => a.kind === 'stuck');
      const level = readingLevel(row.value, w.thresholds, w.thresholds.range);
      if (relayed) {
        // The committing instance evaluates; this one follows, for its alarms (a clear may now fall due first).
        if (level !== w.state.level) {
          const calm = severityOf(level) !== 'critical';
          w.state = { level, okSince: level === 'ok' ? now() : null, calmSince: calm ? (w.state.calmSince ?? now()) : null };
          return alarms.arm(sensorId, w);
        }
      } else if (unstuck || stuckNow || level !== w.state.level || w.active.some((a) => a.last_value !== row.value)) {
        w.seen.push(row.value);
        if (w.seen.length > 2) w.seen = [Math.min(...w.seen), Math.max(...w.seen)];
        enqueue(sensorId);
      }
      // An alarm set is at or before the new stale instant (which only moves later); it is set again when it rings.
      // A run of equal readings may bring the stuck instant before it.
      if (!w.alarm || w.thresholds.stuckAfter !== null) alarms.arm(sensorId, w);
    },

    /** A measurement deleted: the sensor's newest one is read again by an evaluation. */
    measurementDeleted(measurement: Pick<StoredMeasurement, 'sensor_id' | 'measurement_id'>): void {
      const w = watched.get(measurement.sensor_id);
      if (w?.newest?.measurement_id === measurement.measurement_id) {
        w.newest = undefined;
        enqueue(measurement.sensor_id);
      }
    },

    /** Measurements replaced in bulk. */
    generated(sensorIds: readonly number[], relayed: boolean): void {
      for (const sensorId of sensorIds) {
        const w = watched.get(sensorId);
        if (w) w.newest = undefined;
        if (!relayed) enqueue(sensorId);
      }
    },

    /** A sensor created or changed: new thresholds may change its level. */
    sensorChanged(sensor: Sensor, relayed: boolean): void {
      const w = watched.get(sensor.sensor_id);
      if (!w) return void track(sensor.sensor_id, sensor.prototype_id, thresholdsOf(sensor));
      w.prototypeId = sensor.prototype_id;
      if (sameThresholds(w.thresholds, thresholdsOf(sensor))) return;
      w.thresholds = thresholdsOf(sensor);
      if (!relayed) enqueue(sensor.sensor_id);
    },

    /** A prototype deleted: its sensors went with it. */
    prototypeDeleted(prototypeId: number): void {
      for (const [sensorId, w] of watched) if (w.prototypeId === prototypeId) forget(sensorId);
    },

    /** Alert events, from this instance or another: the active alerts known here follow them. */
    heard({ event, alert }: AlertNews): void {
      const sensorId = alert.sensor_id;
      // Alerts without a sensor (an actuator's, the service's own), and a sensor's alerts of other rules (calibration), have no level to follow.
      const w = sensorId === null || !isLevelAlertKind(alert.kind) ? undefined : watched.get(sensorId);
      if (!w || sensorId === null || event === 'acknowledged') return;
      const rest = w.active.filter((a) => a.alert_id !== alert.alert_id);
      w.active = alert.state === 'active' ? [...rest, alert] : rest;
      // What another process's time-driven check found: the level it stored follows.
      if (event === 'raised' && alert.kind === 'stale') w.state = { level: 'stale', okSince: null, calmSince: null };
      if (!w.active.some((a) => a.kind !== 'stale')) w.state = { ...w.state, okSince: null };
      if (!w.active.some((a) => a.kind !== 'stale' && a.severity === 'critical')) w.state = { ...w.state, calmSince: null };
      alarms.arm(sensorId, w);
    },
  };
}

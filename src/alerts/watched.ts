import type { Sensor } from '../domain/sensor.js';
import type { Thresholds } from '../domain/thresholds.js';
import { validRange } from '../safety/validity.js';
import type { EqualRun } from '../safety/inputs.js';
import type { StoredMeasurement } from '../store/index.js';
import type { Range } from './levels.js';
import type { ActiveAlert, LevelState } from './transitions.js';

/** What a sensor's level is judged by: its thresholds, its valid range, and `stuck_after` (seconds, null = off). */
export type SensorLimits = Thresholds & { range: Range; stuckAfter: number | null };

/** What this process knows of one sensor, enough to tell in memory whether a new measurement changes anything. */
export interface Watched {
  prototypeId: number;
  thresholds: SensorLimits;
  newest: Pick<StoredMeasurement, 'measurement_id' | 'value' | 'timestamp'> | undefined;
  state: LevelState;
  active: ActiveAlert[];
  /** The run of equal newest readings (count up to 3), kept only while `stuck_after` is set. */
  run: EqualRun | null;
  /** Newest values between evaluations, for the peak (their extremes). */
  seen: number[];
  /** The one alarm of the sensor and its instant. */
  alarm?: { handle: unknown; at: number };
}

/** A sensor just heard of: nothing known of its values or alerts yet. */
export const newWatched = (prototypeId: number, thresholds: SensorLimits): Watched => ({
  prototypeId,
  thresholds,
  newest: undefined,
  run: null,
  state: { level: null, okSince: null, calmSince: null },
  active: [],
  seen: [],
});

export const isNewer = (row: Watched['newest'] & object, than: Watched['newest']) =>
  !than || row.timestamp > than.timestamp || (row.timestamp === than.timestamp && row.measurement_id > than.measurement_id);

type SensorSettings = Thresholds & Pick<Sensor, 'sensor_type' | 'valid_min' | 'valid_max' | 'stuck_after'>;

export const thresholdsOf = (s: SensorSettings): SensorLimits => ({
  threshold_critically_low: s.threshold_critically_low,
  threshold_low: s.threshold_low,
  threshold_high: s.threshold_high,
  threshold_critically_high: s.threshold_critically_high,
  range: validRange(s.sensor_type, s.valid_min ?? null, s.valid_max ?? null),
  stuckAfter: s.stuck_after ?? null,
});

export const sameThresholds = (a: SensorLimits, b: SensorLimits) =>
  a.threshold_critically_low === b.threshold_critically_low &&
  a.threshold_low === b.threshold_low &&
  a.threshold_high === b.threshold_high &&
  a.threshold_critically_high === b.threshold_critically_high &&
  a.range.min === b.range.min &&
  a.range.max === b.range.max &&
  a.stuckAfter === b.stuckAfter;

/** The run of equal newest readings once `row` is the newest after `before` (counted up to 3). */
export function runAfter(run: EqualRun | null, before: Watched['newest'], row: { value: number; timestamp: number }): EqualRun {
  if (!before || before.value !== row.value || !run) return { count: 1, since: row.timestamp };
  return { count: Math.min(3, run.count + 1), since: Math.min(run.since, row.timestamp) };
}

/** Calls `visit` with the newest row of each sensor in a committed batch. */
export function forNewestOfEach(rows: readonly StoredMeasurement[], visit: (row: StoredMeasurement) => void): void {
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
  if (oneSensor) return visit(newest);
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
  for (const row of byId ? byId.values() : few) visit(row);
}

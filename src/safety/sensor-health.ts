/**
 * Whether a sensor's newest reading can be acted on (docs/api.md §14): it has one, not stale,
 * valid, not stuck — checked in that order. The decision applies these to its own sensor (with
 * `restarted` between the first two) and to every interlock sensor, where any problem blocks.
 */
import { isStale, staleAt } from './freshness.js';
import { earliest } from './instants.js';
import type { SensorInput } from './inputs.js';
import { isStuckRun, stuckAt } from './stuck.js';
import { isValid, validRange } from './validity.js';

export type SensorProblem = 'no_measurement' | 'stale' | 'invalid' | 'stuck';

export const sensorRange = (sensor: SensorInput) =>
  validRange(sensor.settings.sensor_type, sensor.settings.valid_min, sensor.settings.valid_max);

export function sensorProblem(sensor: SensorInput | undefined, at: number, staleAfterDefaultMs: number): SensorProblem | null {
  const newest = sensor?.newest;
  if (!sensor || !newest) return 'no_measurement';
  if (isStale(sensor.settings, newest.timestamp, at, staleAfterDefaultMs)) return 'stale';
  if (!isValid(newest.value, sensorRange(sensor))) return 'invalid';
  if (isStuckRun(sensor.run, sensor.settings.stuck_after, at)) return 'stuck';
  return null;
}

/**
 * The first instant after `now` at which time alone changes `sensorProblem`: the reading turning
 * stale (unless it has none or already is), or the sensor turning stuck (while nothing earlier in
 * the order holds). Null when only a new reading or setting can change it.
 */
export function sensorProblemChangesAt(sensor: SensorInput | undefined, now: number, staleAfterDefaultMs: number): number | null {
  const problem = sensorProblem(sensor, now, staleAfterDefaultMs);
  if (!sensor?.newest || problem === 'no_measurement' || problem === 'stale') return null;
  const stale = staleAt(sensor.settings, sensor.newest.timestamp, now, staleAfterDefaultMs);
  const stuck = problem === null ? stuckAt(sensor.run, sensor.settings.stuck_after, now) : null;
  return earliest([stale, stuck]);
}

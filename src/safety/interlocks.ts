/**
 * Interlocks fail closed (docs/api.md §14): a pump is blocked while an interlock sensor's newest
 * reading is strictly below `block_below` or strictly above `block_above` (a reading exactly at a
 * bound does not block), and also while that sensor has no reading, or a stale, invalid or stuck
 * one. A sensor missing from the inputs counts as having no reading; a NaN bound blocks. The
 * first blocking interlock, in the actuator's order, names itself in the status.
 */
import { earliest } from './instants.js';
import type { Interlock, SensorInput } from './inputs.js';
import { sensorProblem, sensorProblemChangesAt, sensorRange } from './sensor-health.js';
import { describeRange } from './validity.js';

/** The grower's name for the sensor ("Tank level"), else "water level #5", or "sensor #5" when its settings were not supplied. */
const sensorName = (interlock: Interlock, sensor: SensorInput | undefined) =>
  sensor?.settings.sensor_name || `${sensor ? sensor.settings.sensor_type.replaceAll('_', ' ') : 'sensor'} #${interlock.sensor_id}`;

const sensorOf = (interlock: Interlock, sensors: readonly SensorInput[]) =>
  sensors.find((s) => s.settings.sensor_id === interlock.sensor_id);

/** The status of a blocking interlock, e.g. "Interlock: water level #5 is 12 (below 20)", or null when it lets the pump run. */
export function interlockBlock(
  interlock: Interlock,
  sensor: SensorInput | undefined,
  at: number,
  staleAfterDefaultMs: number,
): string | null {
  const name = `Interlock: ${sensorName(interlock, sensor)}`;
  const problem = sensorProblem(sensor, at, staleAfterDefaultMs);
  const newest = sensor?.newest;
  if (problem === 'no_measurement' || !sensor || !newest) return `${name} has no measurement`;
  if (problem === 'stale') return `${name} last measurement too old`;
  if (problem === 'invalid') return `${name} is ${newest.value}, outside its valid range ${describeRange(sensorRange(sensor))}`;
  if (problem === 'stuck') return `${name} is possibly stuck at ${newest.value}`;
  if (interlock.block_below !== null && !(newest.value >= interlock.block_below))
    return `${name} is ${newest.value} (below ${interlock.block_below})`;
  if (interlock.block_above !== null && !(newest.value <= interlock.block_above))
    return `${name} is ${newest.value} (above ${interlock.block_above})`;
  return null;
}

/** The status of the first blocking interlock, or null when none blocks. */
export function firstInterlockBlock(
  interlocks: readonly Interlock[],
  sensors: readonly SensorInput[],
  at: number,
  staleAfterDefaultMs: number,
): string | null {
  for (const interlock of interlocks) {
    const status = interlockBlock(interlock, sensorOf(interlock, sensors), at, staleAfterDefaultMs);
    if (status !== null) return status;
  }
  return null;
}

/**
 * The first instant after `now` at which time alone changes what the interlocks say: a sensor of
 * an interlock up to and including the first blocking one turning stale or stuck.
 */
export function interlocksChangeAt(
  interlocks: readonly Interlock[],
  sensors: readonly SensorInput[],
  now: number,
  staleAfterDefaultMs: number,
): number | null {
  const instants: (number | null)[] = [];
  for (const interlock of interlocks) {
    const sensor = sensorOf(interlock, sensors);
    instants.push(sensorProblemChangesAt(sensor, now, staleAfterDefaultMs));
    if (interlockBlock(interlock, sensor, now, staleAfterDefaultMs) !== null) break;
  }
  return earliest(instants);
}

/**
 * The named runs of the scorecard. Each is a fault (or none) and the pump settings a grower
 * would give that case; fields the service does not know yet are ignored by it.
 */
import type { Fault } from './faults.js';
import type { TankSensor } from './setup.js';

export interface Scenario {
  name: string;
  summary: string;
  faults: Fault[];
  /** Fields of the acid pump beyond the defaults (the safety settings this case is about). */
  pump?: (sensors: Record<TankSensor, number>) => Record<string, unknown>;
}

/** The water level (%) under which the low-water scenario's interlock blocks the pump. */
export const WATER_INTERLOCK_BELOW = 20;
/** The controller timeout (s) of the dead-controller scenario. */
export const DEAD_CONTROLLER_TIMEOUT = 120;
/** The daily run-time limit (s) of the with-limits scenario. */
export const LIMIT_SECONDS_PER_DAY = 20;
/** The pump's flow (ml/s) every scenario sets, so the scorecard can say millilitres. */
export const PUMP_FLOW_ML_PER_SECOND = 0.5;
/** The pH band the crop wants; time in it is judged on the true pH of the tank. */
export const PH_BAND = { low: 5.5, high: 7 };

export const SCENARIOS: readonly Scenario[] = [
  { name: 'normal', summary: 'a healthy tank, probe and controller', faults: [] },
  { name: 'stuck-ph', summary: 'the pH probe is frozen at 8.0', faults: ['stuck-ph'] },
  { name: 'drifting-ph', summary: 'the pH probe reads 0.25 higher every hour', faults: ['drifting-ph'] },
  { name: 'empty-acid', summary: 'the acid bottle is empty: doses do nothing', faults: ['empty-acid'] },
  {
    name: 'low-water',
    summary: `the tank is at 12 % water; the pump has an interlock below ${WATER_INTERLOCK_BELOW} %`,
    faults: ['low-water'],
    pump: (sensors) => ({ interlocks: [{ sensor_id: sensors.water_level, block_below: WATER_INTERLOCK_BELOW, block_above: null }] }),
  },
  {
    name: 'dead-controller',
    summary: `the controller stops after 10 minutes; controller_timeout ${DEAD_CONTROLLER_TIMEOUT} s`,
    faults: ['dead-controller'],
    pump: () => ({ controller_timeout: DEAD_CONTROLLER_TIMEOUT }),
  },
  { name: 'restart', summary: 'the service restarts half way through', faults: ['restart'] },
  {
    name: 'with-limits',
    summary: `the pH probe is frozen at 8.0; max_seconds_per_day ${LIMIT_SECONDS_PER_DAY}`,
    faults: ['stuck-ph'],
    pump: () => ({ max_seconds_per_day: LIMIT_SECONDS_PER_DAY }),
  },
];

export function scenarioNamed(name: string): Scenario | undefined {
  return SCENARIOS.find((scenario) => scenario.name === name);
}

/** The pump fields every scenario sends: its flow, then the scenario's own settings. */
export function pumpFields(scenario: Scenario): (sensors: Record<TankSensor, number>) => Record<string, unknown> {
  return (sensors) => ({ flow_ml_per_s: PUMP_FLOW_ML_PER_SECOND, ...scenario.pump?.(sensors) });
}

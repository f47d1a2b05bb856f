/**
 * The named runs of the scorecard. Each is a fault (or none), the tank it happens in, and what a
 * safe outcome is. Every run uses the service's default safety settings; the only pump settings a
 * scenario adds are the parts of the tank a grower wires up for that case (the water-level
 * interlock of a dry tank, the controller timeout of a dead controller), named in its summary.
 */
import type { Fault } from './faults.js';
import type { TankSensor } from './setup.js';
import type { TankParams } from './tank.js';

/**
 * What the scorecard gate checks (test/simulator/scorecard-gate.test.ts):
 * - `healthy`: never held, the true pH never leaves the band once it is in it;
 * - `held`: held within `heldWithin` doses of the fault, before the true pH passes the sensor's
 *   critical threshold (or, with `beforeLeavingBand`, before it leaves the band);
 * - `no-doses`: the pump never runs (the interlock holds it);
 * - `offline-alert`: the controller goes silent and a critical controller_offline alert says so;
 * - `one-run-per-decision`: the pump runs at least once, no two runs (of either controller) start
 *   within one `activation_period` of each other (gate.ts `ONE_DECISION_MS`), never held, the
 *   true pH never leaves the band once it is in it.
 */
export type Outcome = 'healthy' | 'held' | 'no-doses' | 'offline-alert' | 'one-run-per-decision';

export interface Scenario {
  name: string;
  summary: string;
  faults: Fault[];
  outcome: Outcome;
  /** Simulated hours the scorecard runs it. */
  hours: number;
  /** Hours into the run the fault starts (0: from the start). */
  faultAfterHours?: number;
  /** Doses after the fault before the pump must be held (`held`). */
  heldWithin?: number;
  /** `held` must come before the true pH leaves the band, not only before it turns critical. */
  beforeLeavingBand?: boolean;
  /** The value a stuck probe repeats. */
  stuckPh?: number;
  /** The tank, where it differs from the default one. */
  tank?: Partial<TankParams>;
  /** Fresh water topped up every so many hours, raising the true pH by `phRise` at once. */
  topUps?: { everyHours: number; phRise: number };
  /** Fields of the acid pump beyond the defaults (the parts of the tank this case is about). */
  pump?: (sensors: Record<TankSensor, number>) => Record<string, unknown>;
}

/** The water level (%) under which the low-water scenario's interlock blocks the pump. */
export const WATER_INTERLOCK_BELOW = 20;
/** The controller timeout (s) of the dead-controller scenario. */
export const DEAD_CONTROLLER_TIMEOUT = 120;
/** The pump's flow (ml/s) every scenario sets, so the scorecard can say millilitres. */
export const PUMP_FLOW_ML_PER_SECOND = 0.5;
/** The pH band the crop wants; time in it is judged on the true pH of the tank. */
export const PH_BAND = { low: 5.5, high: 7 };
/** A noisy probe: each reading within ±this of the truth (the default tank's is ±0.02). */
export const NOISY_PH = 0.05;
/** Healthy days before the probe starts to drift: enough for the usual dosing to be learned. */
export const DRIFT_AFTER_HOURS = 2.5 * 24;

export const SCENARIOS: readonly Scenario[] = [
  { name: 'healthy', summary: 'a healthy tank, probe and controller', faults: [], outcome: 'healthy', hours: 24 },
  {
    name: 'noisy-healthy',
    summary: `a healthy tank with a noisy probe (±${NOISY_PH} pH)`,
    faults: [],
    outcome: 'healthy',
    hours: 24,
    tank: { noise: { ph: NOISY_PH, ec: 0.01, temperature: 0.1, water_level: 0.2 } },
  },
  {
    name: 'growth-spurt',
    summary: 'the plants take up 1.5× more: the pH rises 1.5× faster',
    faults: [],
    outcome: 'healthy',
    hours: 24,
    tank: { phRisePerHour: 0.18 },
  },
  {
    name: 'top-ups',
    summary: 'fresh water topped up every 4 h lifts the pH by 0.3 at once',
    faults: [],
    outcome: 'healthy',
    hours: 24,
    topUps: { everyHours: 4, phRise: 0.3 },
  },
  {
    name: 'empty-acid',
    summary: `the acid bottle runs dry after 6 h, with a noisy probe (±${NOISY_PH} pH)`,
    faults: ['empty-acid'],
    outcome: 'held',
    hours: 18,
    faultAfterHours: 6,
    heldWithin: 20,
    tank: { noise: { ph: NOISY_PH, ec: 0.01, temperature: 0.1, water_level: 0.2 } },
  },
  {
    name: 'wrong-bottle',
    summary: 'after 6 h the acid bottle is swapped for base: each dose raises the pH',
    faults: ['wrong-bottle'],
    outcome: 'held',
    hours: 12,
    faultAfterHours: 6,
    heldWithin: 5,
  },
  {
    name: 'stuck-ph',
    summary: 'after 6 h the pH probe freezes at 7.2',
    faults: ['stuck-ph'],
    outcome: 'held',
    hours: 12,
    faultAfterHours: 6,
    heldWithin: 20,
    stuckPh: 7.2,
  },
  {
    name: 'drifting-ph',
    summary: `after ${DRIFT_AFTER_HOURS / 24} healthy days the pH probe reads 0.25 higher every hour`,
    faults: ['drifting-ph'],
    outcome: 'held',
    hours: DRIFT_AFTER_HOURS + 8,
    faultAfterHours: DRIFT_AFTER_HOURS,
    heldWithin: 100,
    beforeLeavingBand: true,
  },
  {
    name: 'two-controllers',
    summary:
      'two controllers poll one pump every 30 s, 1 s apart, each running it when told to and reporting when the run ends; ' +
      'safe: no two runs within one activation_period (300 s), in band',
    faults: ['two-controllers'],
    outcome: 'one-run-per-decision',
    hours: 8,
  },
  {
    name: 'dead-controller',
    summary: `the controller stops after 10 minutes; controller_timeout ${DEAD_CONTROLLER_TIMEOUT} s`,
    faults: ['dead-controller'],
    outcome: 'offline-alert',
    hours: 1,
    pump: () => ({ controller_timeout: DEAD_CONTROLLER_TIMEOUT }),
  },
  {
    name: 'low-water',
    summary: `the tank is at 12 % water; the pump has an interlock below ${WATER_INTERLOCK_BELOW} %`,
    faults: ['low-water'],
    outcome: 'no-doses',
    hours: 6,
    pump: (sensors) => ({ interlocks: [{ sensor_id: sensors.water_level, block_below: WATER_INTERLOCK_BELOW, block_above: null }] }),
  },
  { name: 'restart', summary: 'the service restarts half way through', faults: ['restart'], outcome: 'healthy', hours: 24 },
];

export function scenarioNamed(name: string): Scenario | undefined {
  return SCENARIOS.find((scenario) => scenario.name === name);
}

/** The pump fields every scenario sends: its flow, then the scenario's own settings. */
export function pumpFields(scenario: Scenario): (sensors: Record<TankSensor, number>) => Record<string, unknown> {
  return (sensors) => ({ flow_ml_per_s: PUMP_FLOW_ML_PER_SECOND, ...scenario.pump?.(sensors) });
}

/** A dosing decision's input where every rule passes and the pump runs, and ways to break each rule. */
import type { DecisionInput, SensorInput } from '../../src/safety/index.js';

export const NOW = 1_800_000_000_000;
export const STARTED = NOW - 3600_000;
export const STALE_MS = 24 * 3600_000;

export const waterLevel = (value: number, sensor_id = 5): SensorInput => ({
  settings: { sensor_id, sensor_type: 'water_level', valid_min: null, valid_max: null, stale_after: null, stuck_after: null },
  newest: { value, timestamp: NOW - 1000, received_at: NOW - 1000 },
  run: { count: 1, since: NOW - 1000 },
});

/** A pH sensor reading 7 a second ago; an acid pump on "high" against 6 that last ran an hour ago. */
export function runningInput(): DecisionInput {
  return {
    actuator: {
      enabled: true,
      activation_condition: 'high',
      condition_value: 6,
      activation_period: 300,
      activation_duration: 5,
      last_activated: NOW - 3600_000,
      max_doses_per_hour: null,
      max_seconds_per_day: null,
      max_ml_per_day: null,
      flow_ml_per_s: null,
      stock_ml: null,
      lockout: null,
      interlocks: [],
    },
    sensor: {
      settings: { sensor_id: 1, sensor_type: 'ph', valid_min: null, valid_max: null, stale_after: null, stuck_after: null },
      newest: { value: 7, timestamp: NOW - 1000, received_at: NOW - 1000 },
      run: { count: 1, since: NOW - 1000 },
    },
    interlockSensors: [waterLevel(50)],
    doses: [],
    pausedUntil: null,
    processStartedAt: STARTED,
    now: NOW,
    staleAfterDefaultMs: STALE_MS,
  };
}

/** Builds on a fresh running input; `change` edits it in place. */
export function inputWith(...changes: ((input: DecisionInput) => void)[]): DecisionInput {
  const input = runningInput();
  for (const change of changes) change(input);
  return input;
}

const newest = (input: DecisionInput) => input.sensor.newest;

/** One change per reason that makes exactly that reason apply; any two combine. */
export const CAUSES = {
  disabled: (i: DecisionInput) => void (i.actuator.enabled = false),
  paused: (i: DecisionInput) => void (i.pausedUntil = NOW + 60_000),
  locked_out: (i: DecisionInput) => void (i.actuator.lockout = { since: NOW - 60_000, reason: '20 unanswered doses in a row' }),
  unusual: (i: DecisionInput) =>
    void (i.actuator.lockout = { since: NOW - 60_000, reason: 'Unusual consumption: 2.5× the usual', kind: 'unusual' }),
  no_measurement: (i: DecisionInput) => void (i.sensor.newest = null),
  restarted: (i: DecisionInput) => void (newest(i) && (newest(i)!.received_at = STARTED - 1)),
  stale: (i: DecisionInput) => void (newest(i) && (newest(i)!.timestamp = NOW - STALE_MS - 1)),
  invalid: (i: DecisionInput) => void (newest(i) && (newest(i)!.value = 15)),
  stuck: (i: DecisionInput) => {
    i.sensor.settings.stuck_after = 600;
    i.sensor.run = { count: 3, since: NOW - 600_000 };
  },
  interlock: (i: DecisionInput) => {
    i.actuator.interlocks = [{ sensor_id: 5, block_below: 20, block_above: null }];
    i.interlockSensors = [waterLevel(12)];
  },
  empty: (i: DecisionInput) => void (i.actuator.stock_ml = 0),
  waiting: (i: DecisionInput) => void (i.actuator.last_activated = NOW - 1000),
  zero_duration: (i: DecisionInput) => void (i.actuator.activation_duration = 0),
  limit: (i: DecisionInput) => {
    i.actuator.max_doses_per_hour = 1;
    i.doses = [{ activated_at: NOW - 60_000, duration: 5, volume_ml: null }];
  },
  // Part A (order 1) of the same tank would dose: this part (order 2) waits for it.
  sequenced: (i: DecisionInput) => {
    i.sequence = {
      self: { actuator_id: 99, dose_order: 2 },
      others: [{ actuator_id: 1, dose_order: 1, wouldDose: true, busyUntil: null, lastDosedAt: null, mixing: 0 }],
      pauseS: 60,
    };
  },
} as const;

/**
 * What the dosing decision reads (docs/api.md §14, §15). Instants are epoch milliseconds; every
 * setting measured in time is in seconds, as the API writes it.
 *
 * `null` is the contract's "off / none / not tracked". A field that is absent (`undefined`) or NaN
 * is a missing input and, like every missing input, keeps the pump still.
 */
import type { ActuatorSettings } from '../domain/activation.js';
import type { SensorType } from '../domain/sensor.js';
import type { ActuatorAim, SequenceInput } from '../aims/decision-hook.js';
import type { Light } from '../aims/calendar.js';

export interface SensorReading {
  value: number;
  /** When the device took it. */
  timestamp: number;
  /** When this service received it (for `restarted`). */
  received_at: number;
}

/** A sensor's settings that decide whether its newest reading can be trusted. */
export interface SensorSafetySettings {
  sensor_id: number;
  sensor_type: SensorType;
  /** The grower's name for it, which the interlock's status uses (null or absent: "water level #5"). */
  sensor_name?: string | null;
  /** null = the type's default bound (validity.ts). */
  valid_min: number | null;
  valid_max: number | null;
  /** Seconds; null = the service's STALE_AFTER. */
  stale_after: number | null;
  /** Seconds; null = stuck detection off. */
  stuck_after: number | null;
}

/**
 * The run of exactly equal values at the newest end of a sensor's readings (stuck.ts): how many
 * readings it holds (a caller may cap the count at 3, which is all the rule needs) and when the
 * first (oldest) of them was taken.
 */
export interface EqualRun {
  count: number;
  since: number;
}

/** One sensor as the decision sees it. */
export interface SensorInput {
  settings: SensorSafetySettings;
  /** The newest reading (by timestamp, ties by id), or null when it has none. */
  newest: SensorReading | null;
  /** The run of equal newest readings; needed only when `stuck_after` is set. */
  run: EqualRun | null;
}

export interface Interlock {
  sensor_id: number;
  /** The pump is blocked while the reading is strictly below this (null = no lower bound). */
  block_below: number | null;
  /** The pump is blocked while the reading is strictly above this (null = no upper bound). */
  block_above: number | null;
}

export interface Lockout {
  since: number;
  reason: string;
  /** `unusual`: held on unusual consumption (reason `unusual`); absent or null: a lockout. */
  kind?: 'unusual' | null;
}

/** A recorded dose, as the rolling limits read it. */
export interface DoseRecord {
  activated_at: number;
  /** Seconds the pump ran (the actuator's activation_duration then). */
  duration: number;
  /** null when the actuator had no flow then. */
  volume_ml: number | null;
}

export type ActuatorSafetySettings = ActuatorSettings & {
  max_doses_per_hour: number | null;
  max_seconds_per_day: number | null;
  max_ml_per_day: number | null;
  /** ml per second of run; null = unknown (no volume, no ml limit). */
  flow_ml_per_s: number | null;
  /** ml left in the bottle; null = not tracked. */
  stock_ml: number | null;
  lockout: Lockout | null;
  interlocks: readonly Interlock[];
  /** Set point, sizing and schedule (aims/); absent: none (the threshold rule, fixed doses). */
  aim?: ActuatorAim;
};

export interface DecisionInput {
  actuator: ActuatorSafetySettings;
  /** The sensor whose value the condition reads. */
  sensor: SensorInput;
  /** The sensors named by the interlocks; one missing here counts as having no reading. */
  interlockSensors: readonly SensorInput[];
  /** The actuator's doses: at least every one taken in the last 24 h (older ones are ignored). */
  doses: readonly DoseRecord[];
  /** The prototype's pause; null when not paused. */
  pausedUntil: number | null;
  /** When this service process started. */
  processStartedAt: number;
  now: number;
  /** STALE_AFTER in milliseconds, for sensors without their own stale_after. */
  staleAfterDefaultMs: number;
  /** The zone schedules read (absent: the machine's). */
  zone?: string;
  /** The light of the recipe the prototype follows, for schedules `from_recipe` (absent: none). */
  recipeLight?: Light | null;
  /** The other parts of the actuator's dosing sequence (aims/); absent: not sequenced. */
  sequence?: SequenceInput;
}

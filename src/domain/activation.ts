/**
 * Whether a pump should run now. A wrong `true` over-doses a tank, so every rule that can say
 * "no" is checked before the condition, and the first that matches decides.
 */
import type { ActivationCondition, ActuatorBase } from '../schemas/actuators.js';

/** What the decision reads of an actuator: its settings (periods in seconds), last_activated in epoch ms. */
export type ActuatorSettings = Pick<
  Required<ActuatorBase>,
  'enabled' | 'condition_value' | 'activation_condition' | 'activation_period' | 'activation_duration'
> & { last_activated: number };

export interface LatestReading {
  value: number;
  /** Epoch ms. */
  timestamp: number;
}

export interface Activation {
  activate: boolean;
  status: string;
  duration: number;
  period: number;
}

export const STATUS = {
  disabled: 'Actuator disabled',
  noMeasurement: 'No measurement for the sensor',
  stale: 'Last measurement too old: sensor possibly disconnected',
  waiting: 'Activation period not elapsed',
  zeroDuration: 'Activation duration is 0',
  ok: 'OK',
} as const;

export function conditionHolds(condition: ActivationCondition, value: number, conditionValue: number): boolean {
  switch (condition) {
    case 'high':
      return value > conditionValue;
    case 'low':
      return value < conditionValue;
    case 'low_or_high':
      return value < conditionValue || value > conditionValue;
    case 'always':
      return true;
    default:
      // A condition this code does not know (a row written by a newer version) never activates.
      return false;
  }
}

/**
 * The decision, in order: disabled; no measurement; the newest measurement older than
 * `staleAfterMs`; less than `activation_period` seconds since the last activation; a zero
 * duration; then the condition on the newest value.
 *
 * Boundaries: a reading exactly `staleAfterMs` old is still fresh ("older than" is strict); a
 * period exactly elapsed allows activation. The elapsed milliseconds are divided into seconds
 * rather than the period multiplied into milliseconds, because `period * 1000` is inexact for
 * many decimal periods (2.007 * 1000 = 2007.0000000000002) and would move the boundary.
 *
 * Every test is written so that a value that cannot be compared (NaN) says "no": the ages are
 * checked with `!(… <= …)`, never with `… > …`. A reading or a last_activated in the future
 * (a device clock a little ahead, the server clock set back) counts as fresh and as "period not
 * elapsed" respectively: the pump waits rather than doses twice.
 */
export function activationFor(
  actuator: ActuatorSettings,
  latest: LatestReading | undefined,
  now: number,
  staleAfterMs: number,
): Activation {
  const decide = (activate: boolean, status: string): Activation => ({
    activate,
    status,
    duration: actuator.activation_duration,
    period: actuator.activation_period,
  });
  if (actuator.enabled !== true) return decide(false, STATUS.disabled);
  if (!latest) return decide(false, STATUS.noMeasurement);
  if (!(now - latest.timestamp <= staleAfterMs)) return decide(false, STATUS.stale);
  if (!((now - actuator.last_activated) / 1000 >= actuator.activation_period)) return decide(false, STATUS.waiting);
  if (!(actuator.activation_duration > 0)) return decide(false, STATUS.zeroDuration);
  return decide(conditionHolds(actuator.activation_condition, latest.value, actuator.condition_value), STATUS.ok);
}

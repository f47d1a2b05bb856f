/**
 * What a dosing decision reads and answers, and the condition of §3.3. The decision itself is
 * `decide` in safety/ (docs/api.md §14): the one function that says whether a pump runs.
 */
import type { ActivationCondition, ActuatorBase } from './actuator.js';

/** What the decision reads of an actuator: its settings (periods in seconds), last_activated in epoch ms. */
export type ActuatorSettings = Pick<
  Required<ActuatorBase>,
  'enabled' | 'condition_value' | 'activation_condition' | 'activation_period' | 'activation_duration'
> & { last_activated: number };

/** The decision as clients read it (`ActuatorActivation`): `reason` is the stable code, `status` the sentence. */
export interface Activation {
  activate: boolean;
  status: string;
  reason: string;
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

/**
 * The one decision whether a dosing pump runs now (docs/api.md §3.3, §14, §15): HTTP polling, the
 * MQTT state topic, events and the decision watcher all call it. The first rule of rules.ts that
 * holds decides, with `activate` false; when none holds the reason is `ok` and `activate` is the
 * condition of §3.3 on the newest value.
 *
 * `limit` is reported whether or not the condition holds (its place in the order says so): a
 * grower sees that the pump could not run now even if the reading asked for it. `conditionMet`
 * tells the alert logic whether the limit is actually holding back a pump that would run.
 */
import { conditionHolds } from '../domain/activation.js';
import type { DecisionInput } from './inputs.js';
import { SAFETY_STATUS, type Decision, type Reason } from './reasons.js';
import { RULES } from './rules.js';

export function decide(input: DecisionInput): Decision {
  const { actuator, sensor, now } = input;
  const newest = sensor?.newest;
  const conditionMet = newest ? conditionHolds(actuator.activation_condition, newest.value, actuator.condition_value) : false;
  const decision = (reason: Reason, status: string, activate: boolean): Decision => ({
    activate,
    status,
    reason,
    duration: actuator.activation_duration,
    period: actuator.activation_period,
    conditionMet,
  });
  for (const rule of RULES) {
    const status = rule.check(input, now);
    if (status !== null) return decision(rule.reason, status, false);
  }
  return decision('ok', SAFETY_STATUS.ok, conditionMet);
}

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
import { aimedCondition, aimedInput, scheduledDecision, sequencedDecision } from '../aims/decision-hook.js';

export function decide(given: DecisionInput): Decision {
  // Dosing that aims (aims/decision-hook.ts): timed outputs answer their schedule; a set point
  // decides the condition and sizes the dose the rules then check.
  const scheduled = scheduledDecision(given);
  if (scheduled) return scheduled;
  const newest = given.sensor?.newest;
  const threshold = (v: number) => conditionHolds(given.actuator.activation_condition, v, given.actuator.condition_value);
  const conditionMet = newest ? aimedCondition(given, newest.value, threshold) : false;
  const { input, shown } = aimedInput(given, conditionMet);
  const { actuator, now } = input;
  const decision = (reason: Reason, status: string, activate: boolean): Decision => ({
    activate,
    status,
    reason,
    duration: actuator.activation_duration,
    period: actuator.activation_period,
    conditionMet,
    ...(shown ? { aim: shown } : {}),
  });
  for (const rule of RULES) {
    const status = rule.check(input, now);
    if (status !== null) return decision(rule.reason, status, false);
  }
  // A part of a dosing sequence waits for the others (aims/decision-hook.ts).
  return sequencedDecision(decision('ok', SAFETY_STATUS.ok, conditionMet), input.sequence, now);
}

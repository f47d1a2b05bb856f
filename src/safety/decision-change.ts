/**
 * The next instant at which time alone changes the dosing decision (docs/api.md §14): the decision
 * watcher sets one alarm per actuator there. Rules that time can change: a pause ending, the
 * sensor's reading turning stale or stuck, an interlock sensor's turning stale or stuck, the
 * activation period elapsing, a limit's window freeing. Everything else (a new reading, settings,
 * a dose, an unlock, a refill) is a write and wakes the watcher itself.
 *
 * Only the rules up to and including the one deciding now matter: a later rule cannot show while
 * it holds, and when it stops holding the watcher decides again and asks for the next instant.
 * Each instant is exact to the millisecond (computed with the decision's own comparisons); at it
 * the decision usually changes, and between now and it the decision certainly does not.
 */
import { earliest } from './instants.js';
import type { DecisionInput } from './inputs.js';
import { RULES } from './rules.js';
import { scheduleChangesAt, sequenceChangesAt } from '../aims/decision-hook.js';

export function nextDecisionChange(input: DecisionInput): number | null {
  const { now } = input;
  if (Number.isNaN(now)) return null;
  // A timed output changes at its window's edges (aims/decision-hook.ts); no dose rule applies.
  if (input.actuator.activation_condition === 'schedule') return scheduleChangesAt(input);
  const instants: (number | null)[] = [];
  for (const rule of RULES) {
    if (rule.changesAt) instants.push(rule.changesAt(input, now));
    if (rule.check(input, now) !== null) break;
  }
  // A sequenced actuator's decision moves with the others' (aims/decision-hook.ts).
  if (input.sequence) instants.push(sequenceChangesAt(input));
  return earliest(instants);
}

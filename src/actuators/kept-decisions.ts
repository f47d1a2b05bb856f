/**
 * Each polled actuator's decision (docs/api.md §3.3, §14), kept with its JSON text for as long as it
 * holds, so that the polls between two changes answer without deciding again.
 *
 * A decision made on the inputs at an instant holds until those inputs change or time alone
 * changes it, and no longer:
 * - its inputs: the listeners of decision-inputs.ts are told which actuators' inputs changed
 *   (that actuator's decision is dropped), and its `epoch` moves on every other change of what is
 *   kept (every kept decision is then made again);
 * - time: `nextDecisionChange` gives the first instant at which time alone could change it (a
 *   period elapsing, a reading turning stale or stuck, a pause ending, a limit's window freeing),
 *   and the decision is kept for the instants from the one it was made at up to that one. A
 *   clock set back before that instant makes it again.
 *
 * Only a decision made at once on kept inputs is kept: one that had to wait for the store is
 * answered, and the next poll decides on what is then kept.
 */
import { activationJson } from '../core/json-text.js';
import { decide, type Decision, nextDecisionChange } from '../safety/index.js';
import type { MaybePromise } from '../store/index.js';
import type { DecisionInputs } from './decision-inputs.js';
import { isPromise } from '../core/maybe-promise.js';

/** A decision and the JSON text the state read answers with (`ActuatorActivation`). */
export interface KeptDecision {
  decision: Decision;
  json: string;
}

interface Kept extends KeptDecision {
  /** The inputs' epoch when it was made. */
  epoch: number;
  /** It holds at the instants from `from` (when it was made) up to, not including, `until`. */
  from: number;
  until: number;
}

export interface KeptDecisionsDeps {
  inputs: Pick<DecisionInputs, 'input' | 'epoch' | 'onChange'>;
  now: () => number;
}

const answerOf = (decision: Decision): KeptDecision => ({ decision, json: activationJson(decision) });

export function keptDecisions({ inputs, now }: KeptDecisionsDeps) {
  const kept = new Map<number, Kept>();
  inputs.onChange((actuatorIds) => {
    for (const id of actuatorIds) kept.delete(id);
  });

  function decideNow(actuatorId: number): MaybePromise<KeptDecision | undefined> {
    // Read before the input is built, in the same synchronous step: a change after it moves it.
    const epoch = inputs.epoch();
    const input = inputs.input(actuatorId);
    if (isPromise(input)) return input.then((read) => read && answerOf(decide(read)));
    if (input === undefined) {
      kept.delete(actuatorId);
      return undefined;
    }
    const decision = decide(input);
    const entry: Kept = {
      decision,
      json: activationJson(decision),
      epoch,
      from: input.now,
      // A timed output's duration counts down the rest of its window: kept a second at most.
      until: Math.min(
        nextDecisionChange(input) ?? Number.POSITIVE_INFINITY,
        decision.scheduleChangesAt !== undefined ? input.now + 1000 : Infinity,
      ),
    };
    kept.set(actuatorId, entry);
    return entry;
  }

  return {
    /**
     * The actuator's decision now, and its JSON text: the kept one while it holds, else made
     * again (at once when the inputs are kept). Undefined for an actuator that does not exist.
     */
    of(actuatorId: number): MaybePromise<KeptDecision | undefined> {
      const entry = kept.get(actuatorId);
      if (entry !== undefined && entry.epoch === inputs.epoch()) {
        const at = now();
        if (entry.from <= at && at < entry.until) return entry;
      }
      return decideNow(actuatorId);
    },
  };
}

export type KeptDecisions = ReturnType<typeof keptDecisions>;

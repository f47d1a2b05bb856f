import type { ChangeBus } from '../core/bus.js';
import type { Logger } from '../core/logger.js';
import type { Timers } from '../core/timers.js';
import { decide, type Decision, type DecisionInput, nextDecisionChange } from '../safety/index.js';
import type { MaybePromise, Store, StoredActuator } from '../store/index.js';
import type { DecisionInputs } from './decision-inputs.js';
import { isPromise } from '../core/maybe-promise.js';

export interface DecisionWatcherDeps {
  store: Pick<Store, 'actuators'>;
  inputs: DecisionInputs;
  /** The actuator as announced: with `last_polled` as this process knows it. */
  withLastPolled?: (actuator: StoredActuator) => StoredActuator;
  bus: ChangeBus;
  timers: Timers;
  log: Logger;
}

interface Watched {
  actuatorId: number;
  /** The decision last announced (or found at the start); undefined until the first is made. */
  state?: Decision;
  /** The alarm of the next instant time alone changes the decision, if there is one. */
  alarm?: unknown;
  /** Counts the decisions asked for: only the latest one's answer is applied. */
  asked: number;
  /** The actuator itself changed since the last announcement: announce even an unchanged decision. */
  changed: boolean;
}

/**
 * Whether two decisions read differently to a client, or to the `limit` alert (a limit holding
 * back a pump that would run, `conditionMet`, is news even when the status is the same).
 */
const sameState = (a: Decision, b: Decision) =>
  a.activate === b.activate &&
  a.status === b.status &&
  a.reason === b.reason &&
  a.duration === b.duration &&
  a.period === b.period &&
  (a.reason !== 'limit' || a.conditionMet === b.conditionMet);

/**
 * Keeps every actuator's decision (§3.3, §14, the one `decide`) and publishes `decision`
 * whenever the actuator or its decision changes: when its inputs change (decision-inputs.ts
 * hears the writes on the bus), and at the instants time alone changes it — a pause ending, the
 * period elapsing, a reading turning stale or stuck, a limit's window freeing. Each actuator has
 * at most one alarm, set for the next such instant (`nextDecisionChange`): no periodic sweep.
 */
export function decisionWatcher({ store, inputs, withLastPolled = (a) => a, bus, timers, log }: DecisionWatcherDeps) {
  const watched = new Map<number, Watched>();
  let stopUpdates: (() => void) | undefined;
  let stopped = false;

  function forget(actuatorId: number): void {
    const entry = watched.get(actuatorId);
    if (entry?.alarm !== undefined) timers.clear(entry.alarm);
    watched.delete(actuatorId);
  }

  function schedule(entry: Watched, input: DecisionInput): void {
    if (entry.alarm !== undefined) timers.clear(entry.alarm);
    entry.alarm = undefined;
    if (stopped) return;
    const next = nextDecisionChange(input);
    if (next === null) return;
    entry.alarm = timers.set(() => {
      entry.alarm = undefined;
      if (watched.get(entry.actuatorId) === entry) refresh(entry.actuatorId, false);
    }, next - input.now);
  }

  function apply(entry: Watched, input: DecisionInput | undefined, quiet: boolean): void {
    if (watched.get(entry.actuatorId) !== entry || stopped) return;
    const actuator = inputs.actuator(entry.actuatorId);
    if (!input || !actuator) return forget(entry.actuatorId);
    const state = decide(input);
    const differs = entry.state === undefined || !sameState(state, entry.state);
    entry.state = state;
    if (!quiet && (entry.changed || differs)) {
      entry.changed = false;
      const { interlocks: _kept, ...row } = actuator;
      bus.publish('decision', { actuator: { ...withLastPolled(row), interlocks: actuator.interlocks } as StoredActuator, state });
    }
    if (quiet) entry.changed = false;
    schedule(entry, input);
  }

  /** Decides again; tells the bus when the actuator changed (`changed`) or its decision did. */
  function refresh(actuatorId: number, changed: boolean, quiet = false): MaybePromise<void> {
    if (stopped) return;
    let entry = watched.get(actuatorId);
    if (!entry) {
      entry = { actuatorId, asked: 0, changed: false };
      watched.set(actuatorId, entry);
    }
    entry.changed ||= changed;
    const asked = ++entry.asked;
    const target = entry;
    const failed = (error: unknown) => log.error({ err: error, actuatorId }, 'reading what the dosing decision needs failed');
    let input: MaybePromise<DecisionInput | undefined>;
    try {
      input = inputs.input(actuatorId);
    } catch (error) {
      return failed(error);
    }
    if (!isPromise(input)) return apply(target, input, quiet);
    return input.then((read) => {
      if (target.asked === asked) apply(target, read, quiet);
    }, failed);
  }

  return {
    /** Decides every actuator (announcing nothing), then follows the changes of their inputs. */
    async start(): Promise<void> {
      stopUpdates = inputs.onChange((actuatorIds, changed) => {
        for (const id of actuatorIds) void refresh(id, changed);
      });
      const actuators = await store.actuators.all();
      await Promise.all(actuators.filter((a) => !watched.has(a.actuator_id)).map((a) => refresh(a.actuator_id, false, true)));
    },

    /** The decision last made for an actuator (undefined for one not known). */
    stateOf(actuatorId: number): Decision | undefined {
      return watched.get(actuatorId)?.state;
    },

    stop(): void {
      stopped = true;
      stopUpdates?.();
      for (const entry of watched.values()) if (entry.alarm !== undefined) timers.clear(entry.alarm);
      watched.clear();
    },
  };
}

export type DecisionWatcher = ReturnType<typeof decisionWatcher>;

import type { ChangeBus } from '../core/bus.js';
import type { Logger } from '../core/logger.js';
import { isMissingReference, type NewDecision, type Store } from '../store/index.js';

/** A person's action (an unlock, a settings change) is the cause of a decision change this close to it. */
export const CAUSE_WINDOW_MS = 2_000;

export interface DecisionRecorderDeps {
  store: Pick<Store, 'transaction'>;
  bus: ChangeBus;
  now: () => number;
  log: Logger;
}

/**
 * Records each change of an actuator's decision `reason` (the decision watcher announces every
 * decision that reads differently, on the bus): one row per change, never one per poll. The
 * reason last recorded is kept here, so an announcement that does not change it costs nothing;
 * the write looks at the stored one again under the actuator's row lock, so instances announcing
 * the same change write it once. Who caused it is taken from the actuator change (an unlock, a
 * settings change) that came with it.
 */
export function decisionRecorder({ store, bus, now, log }: DecisionRecorderDeps) {
  const lastReason = new Map<number, string>();
  const causes = new Map<number, { by: string; at: number }>();
  let chain: Promise<void> = Promise.resolve();
  const unsubscribe: (() => void)[] = [];

  /** Who caused a change at `at`, taken once: a cause seen within the window of it. */
  function causeOf(actuatorId: number, at: number): string | null {
    const cause = causes.get(actuatorId);
    if (!cause || Math.abs(at - cause.at) > CAUSE_WINDOW_MS) return null;
    causes.delete(actuatorId);
    return cause.by;
  }

  async function write(change: Omit<NewDecision, 'by'>): Promise<void> {
    const id = change.actuator_id;
    try {
      await store.transaction(async (tx) => {
        await tx.actuators.lock([id]);
        if ((await tx.decisions.latestReason(id)) === change.reason) return;
        await tx.decisions.record({ ...change, by: causeOf(id, change.at) });
      });
    } catch (error) {
      // The actuator was deleted meanwhile: its history went with it.
      if (isMissingReference(error)) return;
      log.error({ err: error, actuatorId: id }, 'recording a decision change failed');
      // Not known to be recorded: the next announcement tries again.
      if (lastReason.get(id) === change.reason) lastReason.delete(id);
    }
  }

  return {
    start(): void {
      unsubscribe.push(
        bus.subscribe('decision', ({ actuator, state }) => {
          const id = actuator.actuator_id;
          if (lastReason.get(id) === state.reason) return;
          lastReason.set(id, state.reason);
          const change = { actuator_id: id, at: now(), reason: state.reason, status: state.status, activate: state.activate };
          // After the current announcement: the actuator change that caused it is heard first.
          chain = chain.then(() => write(change));
        }),
        bus.subscribe('actuator', (change) => {
          if (change.action === 'deleted') {
            lastReason.delete(change.actuatorId);
            causes.delete(change.actuatorId);
            return;
          }
          const by = change.unlockedBy ?? change.changedBy;
          if (by) causes.set(change.actuator.actuator_id, { by, at: now() });
        }),
      );
    },

    /** Resolves once the changes heard so far are written (tests, and the close). */
    async idle(): Promise<void> {
      let last: Promise<void> | undefined;
      while (last !== chain) {
        last = chain;
        await last;
      }
    },

    async stop(): Promise<void> {
      for (const stop of unsubscribe.splice(0)) stop();
      await this.idle();
    },
  };
}

export type DecisionRecorder = ReturnType<typeof decisionRecorder>;

import type { ChangeBus } from '../core/bus.js';
import type { Logger } from '../core/logger.js';
import type { Timers } from '../core/timers.js';
import { isRelayed } from '../events/postgres-relay.js';
import { correctiveDirection, judgeDose, nextUnansweredStreak, shouldLockOut } from '../safety/judging.js';
import { lockoutReason } from '../safety/lockout-reason.js';
import type { Repositories, Store, StoredActivation, StoredActuator } from '../store/index.js';
import { type ActuatorAlertDeps, clearActuatorAlert, raiseActuatorAlert } from './actuator-alerts.js';
import type { AlertNews } from './alert-json.js';
import { correctiveMove, judgingTarget, learnAfterJudging } from '../aims/gain-learning.js';

/** A failed judging is tried again after this long. */
const RETRY_MS = 5000;

export interface DoseJudgeDeps extends ActuatorAlertDeps {
  store: Pick<Store, 'transaction' | 'activations'>;
  bus: ChangeBus;
  now: () => number;
  timers: Timers;
  log: Logger;
}

/** A dose the rule can never judge: no reading before it, or nothing to correct toward. */
const neverJudged = (dose: StoredActivation, actuator: StoredActuator) =>
  dose.value_before === null || correctiveDirection(actuator.activation_condition, dose.value_before, judgingTarget(actuator)) === null;

/** What one judging committed, to publish. */
interface Judged {
  /** The actuator, when this judging locked it out. */
  lockedOut?: StoredActuator & { interlocks: unknown[] };
  /** The actuator, when this judging changed its learned gain (aims/gain-learning.ts). */
  learned?: StoredActuator & { interlocks: unknown[] };
  news: AlertNews[];
  /** Whether doses wait for a later reading still. */
  waiting: boolean;
}

/**
 * Judges the actuator's doses not judged yet (docs/api.md §14), oldest first, in one transaction with
 * its row locked (so instances take turns): each `answered` stored, the count of unanswered doses
 * in a row kept, and when it reaches `lockout_after` the actuator locked out (recorded for the
 * journal) and a `lockout` alert raised, at once.
 */
async function judgeActuator(tx: Repositories, deps: DoseJudgeDeps, actuatorId: number, at: number): Promise<Judged> {
  await tx.actuators.lock([actuatorId]);
  const actuator = await tx.actuators.get(actuatorId);
  if (!actuator || actuator.activation_condition === 'always') return { news: [], waiting: false };
  const doses = await tx.activations.unjudged(actuatorId);
  const newest = await tx.measurements.last(actuator.sensor_id);
  let streak = actuator.unanswered_streak;
  let waiting = false;
  for (const dose of doses) {
    if (neverJudged(dose, actuator)) continue;
    const answered = newest
      ? judgeDose(
          dose,
          actuator.activation_condition,
          judgingTarget(actuator),
          actuator.min_response,
          [newest],
          actuator.response_delay,
          actuator.activation_period,
        )
      : null;
    // No reading late enough for this dose, so none for the later ones either.
    if (answered === null) {
      waiting = true;
      break;
    }
    // The move goes with the verdict: the learned gain is made of the answered ones.
    await tx.activations.judge(dose.activation_id, answered, newest ? correctiveMove(actuator, dose.value_before!, newest.value) : null);
    streak = nextUnansweredStreak(streak, answered);
  }
  if (streak !== actuator.unanswered_streak) await tx.actuators.setUnansweredStreak(actuatorId, streak);
  const relearned = await learnAfterJudging(tx, actuator);
  const learned = relearned && { ...relearned, interlocks: await tx.interlocks.of(actuatorId) };
  if (actuator.lockout_since !== null || !shouldLockOut(streak, actuator.lockout_after)) return { news: [], waiting, learned };

  const sensor = await tx.sensors.get(actuator.sensor_id);
  const reason = lockoutReason(
    streak,
    sensor?.sensor_type ?? 'ph',
    actuator.activation_condition,
    actuator.condition_value,
    actuator.min_response,
  );
  const locked = await tx.actuators.lockOut(actuatorId, at, reason);
  if (!locked) return { news: [], waiting };
  await tx.safetyEvents.record({ kind: 'lockout', at, actuator_id: actuatorId, prototype_id: null, reason });
  const raised = await raiseActuatorAlert(tx, deps, locked, 'lockout', 'critical', at);
  return {
    lockedOut: {
      ...locked,
      unanswered_streak: streak,
      learned_gain: learned?.learned_gain ?? locked.learned_gain,
      interlocks: await tx.interlocks.of(actuatorId),
    },
    news: raised ? [raised] : [],
    waiting,
  };
}

/**
 * Dose judging and lockout (docs/api.md §14). The actuators with doses not judged yet are known here
 * (read at start, then from the run reports on the bus, from every instance); measurements of
 * their sensor committed by this instance judge them — once across instances, as the committing
 * instance alone does it. An unlock made here clears the lockout alert and records who unlocked.
 * Nothing here is awaited by the write that caused it.
 */
export function doseJudge(deps: DoseJudgeDeps) {
  const { store, bus, now, timers, log } = deps;
  /** Actuator → its sensor, and a count that tells whether a run was reported during a judging. */
  const pending = new Map<number, { sensorId: number; reports: number }>();
  let reports = 0;
  let chain: Promise<void> = Promise.resolve();
  let stopped = false;
  const unsubscribe: (() => void)[] = [];

  /** Work runs one at a time, in the order asked: judgings and alert changes of one actuator never overlap here. */
  const run = (work: () => Promise<void>): void => {
    chain = chain.then(work).catch(() => {});
  };

  function judge(actuatorId: number): void {
    run(async () => {
      const entry = pending.get(actuatorId);
      if (stopped || !entry) return;
      const seen = entry.reports;
      let judged: Judged;
      try {
        judged = await store.transaction((tx) => judgeActuator(tx, deps, actuatorId, now()));
      } catch (error) {
        log.error({ err: error, actuatorId }, 'judging the doses of an actuator failed; trying again shortly');
        timers.set(() => judge(actuatorId), RETRY_MS);
        return;
      }
      if (!judged.waiting && pending.get(actuatorId)?.reports === seen) pending.delete(actuatorId);
      if (judged.lockedOut) bus.publish('actuator', { action: 'updated', actuator: judged.lockedOut });
      else if (judged.learned) bus.publish('actuator', { action: 'updated', actuator: judged.learned });
      for (const news of judged.news) bus.publish('alert', news);
    });
  }

  function unlocked(actuatorId: number, by: string | null): void {
    run(async () => {
      try {
        const news = await store.transaction((tx) => clearActuatorAlert(tx, deps, actuatorId, 'lockout', now(), { by }));
        if (news) bus.publish('alert', news);
      } catch (error) {
        log.error({ err: error, actuatorId }, 'clearing the lockout alert of an unlocked actuator failed');
      }
    });
  }

  return {
    async start(): Promise<void> {
      unsubscribe.push(
        bus.subscribe('actuator', (change) => {
          if (change.action === 'deleted') return void pending.delete(change.actuatorId);
          const { actuator } = change;
          const entry = pending.get(actuator.actuator_id);
          if (change.action === 'activated' && actuator.activation_condition !== 'always') {
            pending.set(actuator.actuator_id, { sensorId: actuator.sensor_id, reports: ++reports });
          } else if (entry) entry.sensorId = actuator.sensor_id;
          if (change.unlockedBy !== undefined && !isRelayed(change)) unlocked(actuator.actuator_id, change.unlockedBy);
        }),
        bus.subscribe('measurements', (change) => {
          if (isRelayed(change) || pending.size === 0) return;
          const sensors = new Set<number>();
          for (const row of change.rows) sensors.add(row.sensor_id);
          for (const [actuatorId, entry] of pending) if (sensors.has(entry.sensorId)) judge(actuatorId);
        }),
      );
      for (const { actuator_id, sensor_id } of await store.activations.pendingActuators()) {
        if (!pending.has(actuator_id)) pending.set(actuator_id, { sensorId: sensor_id, reports: ++reports });
      }
    },

    /** Resolves once the work asked for so far is done (tests). */
    async idle(): Promise<void> {
      let last: Promise<void> | undefined;
      while (last !== chain) {
        last = chain;
        await last;
      }
    },

    async stop(): Promise<void> {
      stopped = true;
      for (const stop of unsubscribe.splice(0)) stop();
      await chain;
    },
  };
}

export type DoseJudge = ReturnType<typeof doseJudge>;

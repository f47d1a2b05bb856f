import type { ChangeBus } from '../core/bus.js';
import type { Logger } from '../core/logger.js';
import type { Timers } from '../core/timers.js';
import { isRelayed } from '../events/postgres-relay.js';
import { actuatorUsage, usageUnit } from '../doses/usage.js';
import { distanceToCritical, exceedsExpectedEffect, learnedEffectPerSecond } from '../safety/expected-effect.js';
import { correctiveDirection, judgeResponse, nextUnansweredStreak, shouldLockOut, shouldLockOutReversed } from '../safety/judging.js';
import { expectedEffectReason, lockoutReason, reversedReason, unusualReason } from '../safety/lockout-reason.js';
import { NOISE_LOOKBACK_MS } from '../safety/response.js';
import { isUnusual } from '../safety/usual.js';
import type { Repositories, Store, StoredActivation, StoredActuator } from '../store/index.js';
import { type ActuatorAlertDeps, clearActuatorAlert, raiseActuatorAlert } from './actuator-alerts.js';
import type { AlertNews } from './alert-json.js';
import { settled } from '../core/settled.js';
import { judgingTarget, learnAfterJudging } from '../aims/gain-learning.js';

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

/** Readings read at most to judge the doses waiting: far more than the windows need. */
const MAX_READINGS = 5000;
/** The look back for the noise when the full one holds more readings than are read. */
const SHORT_LOOKBACK_MS = 10 * 60 * 1000;
/** Judged doses read back for the runs and the learned effect. */
const RECENT_DOSES = 200;

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

/** The readings the doses are judged on: around them for automatic judging, the newest for an explicit threshold. */
async function readingsFor(tx: Repositories, actuator: StoredActuator, doses: readonly StoredActivation[], at: number) {
  if (actuator.min_response !== null) {
    const newest = await tx.measurements.last(actuator.sensor_id);
    return newest ? [newest] : [];
  }
  const newest = await tx.measurements.last(actuator.sensor_id);
  const to = Math.max(at, newest?.timestamp ?? at);
  const readings = await tx.measurements.between(actuator.sensor_id, doses[0].activated_at - NOISE_LOOKBACK_MS, to, MAX_READINGS);
  if (readings.length < MAX_READINGS) return readings;
  // A probe that reads many times a minute: a shorter look back still measures its noise, and leaves room for the readings after.
  return tx.measurements.between(actuator.sensor_id, doses[0].activated_at - SHORT_LOOKBACK_MS, to, MAX_READINGS);
}

/** Why the judged doses lock the actuator out now, or null. Reversed doses first, then the expected effect, then the count. */
async function lockoutCause(
  tx: Repositories,
  actuator: StoredActuator,
  streak: number,
  sensor: Awaited<ReturnType<Repositories['sensors']['get']>>,
): Promise<string | null> {
  const sensorType = sensor?.sensor_type ?? 'ph';
  if (streak > 0) {
    const recent = await tx.activations.recentJudged(actuator.actuator_id, Math.max(RECENT_DOSES, streak));
    const run = recent.slice(0, streak).filter((dose) => dose.answered === false);
    let reversed = 0;
    while (reversed < run.length && run[reversed].reversed === true) reversed++;
    if (shouldLockOutReversed(reversed, actuator.lockout_reversed_after)) return reversedReason(reversed, sensorType);
    const direction =
      run[0]?.value_before == null
        ? null
        : correctiveDirection(actuator.activation_condition, run[0].value_before, actuator.condition_value);
    const distance = sensor && direction !== null ? distanceToCritical(direction, actuator.condition_value, sensor) : null;
    const effect = learnedEffectPerSecond(recent);
    const seconds = run.reduce((sum, dose) => sum + dose.duration, 0);
    if (exceedsExpectedEffect(seconds, effect, distance)) {
      return expectedEffectReason(streak, sensorType, seconds * effect!, distance!);
    }
  }
  if (shouldLockOut(streak, actuator.lockout_after)) {
    return lockoutReason(streak, sensorType, actuator.activation_condition, actuator.condition_value, actuator.min_response);
  }
  return null;
}

/** Locks the actuator out (or holds it, for unusual consumption) with its reason, the journal and a critical alert. */
async function lockOut(
  tx: Repositories,
  deps: DoseJudgeDeps,
  actuator: StoredActuator,
  at: number,
  reason: string,
  kind: 'unusual' | null,
  value: number | null,
): Promise<Pick<Judged, 'lockedOut' | 'news'>> {
  const locked = await tx.actuators.lockOut(actuator.actuator_id, at, reason, kind);
  if (!locked) return { news: [] };
  await tx.safetyEvents.record({ kind: 'lockout', at, actuator_id: actuator.actuator_id, prototype_id: null, reason });
  const raised = await raiseActuatorAlert(tx, deps, locked, kind ?? 'lockout', 'critical', at, value);
  return {
    lockedOut: { ...locked, interlocks: await tx.interlocks.of(actuator.actuator_id) },
    news: raised ? [raised] : [],
  };
}

/**
 * Judges the actuator's doses not judged yet (docs/api.md §14), oldest first, in one transaction with
 * its row locked (so instances take turns): each `answered` (and `reversed`, how far it moved)
 * stored, the count of unanswered doses in a row kept, and the actuator locked out at once when
 * reversed doses, the expected effect of unanswered ones or their count say so; then held when
 * its recent dosing is unusual for it. Each with a critical alert.
 */
async function judgeActuator(tx: Repositories, deps: DoseJudgeDeps, actuatorId: number, at: number): Promise<Judged> {
  await tx.actuators.lock([actuatorId]);
  const actuator = await tx.actuators.get(actuatorId);
  if (!actuator || actuator.activation_condition === 'always') return { news: [], waiting: false };
  const doses = (await tx.activations.unjudged(actuatorId)).filter((dose) => !neverJudged(dose, actuator));
  const readings = doses.length > 0 ? await readingsFor(tx, actuator, doses, at) : [];
  let streak = actuator.unanswered_streak;
  let waiting = false;
  let judgedAny = false;
  for (const dose of doses) {
    const judged = judgeResponse(
      dose,
      actuator.activation_condition,
      judgingTarget(actuator),
      actuator.min_response,
      readings,
      actuator.response_delay,
      actuator.activation_period,
    );
    // No reading late enough for this dose, so none for the later ones either.
    if (judged === null) {
      waiting = true;
      break;
    }
    await tx.activations.judge(dose.activation_id, judged.answered, { response: judged.response, reversed: judged.reversed });
    streak = nextUnansweredStreak(streak, judged.answered);
    judgedAny = true;
  }
  if (streak !== actuator.unanswered_streak) await tx.actuators.setUnansweredStreak(actuatorId, streak);
  const relearned = judgedAny ? await learnAfterJudging(tx, actuator) : null;
  const learned = relearned ? { ...relearned, interlocks: await tx.interlocks.of(actuatorId) } : undefined;
  if (actuator.lockout_since !== null) return { news: [], waiting, learned };

  const sensor = await tx.sensors.get(actuator.sensor_id);
  const cause = judgedAny ? await lockoutCause(tx, actuator, streak, sensor) : null;
  if (cause !== null) {
    const done = await lockOut(tx, deps, actuator, at, cause, null, null);
    return {
      ...done,
      lockedOut: done.lockedOut && {
        ...done.lockedOut,
        unanswered_streak: streak,
        learned_gain: learned?.learned_gain ?? done.lockedOut.learned_gain,
      },
      waiting,
    };
  }

  if (actuator.unusual_factor !== null) {
    const use = await actuatorUsage(tx, actuator, at);
    if (isUnusual(use, actuator.unusual_factor)) {
      const reason = unusualReason(use.ratio!, use.usual!, usageUnit(actuator), actuator.usual_window);
      return { ...(await lockOut(tx, deps, actuator, at, reason, 'unusual', use.ratio)), waiting };
    }
  }
  return { news: [], waiting, learned };
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
        const news = await store.transaction(async (tx) => [
          await clearActuatorAlert(tx, deps, actuatorId, 'lockout', now(), { by }),
          await clearActuatorAlert(tx, deps, actuatorId, 'unusual', now(), { by }),
        ]);
        for (const each of news) if (each) bus.publish('alert', each);
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
    idle: (): Promise<void> => settled(() => chain),

    async stop(): Promise<void> {
      stopped = true;
      for (const stop of unsubscribe.splice(0)) stop();
      await chain;
    },
  };
}

export type DoseJudge = ReturnType<typeof doseJudge>;

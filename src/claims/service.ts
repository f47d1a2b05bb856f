/**
 * A dose is a claim (docs/safety.md "A dose is a claim"). Where a controller is told to act — the
 * HTTP state read, and the MQTT state topic of an actuator whose `controller` is `mqtt` — a
 * decision to run is answered `activate: true` only once a claim for that run is committed in the
 * store: one transaction per dose, never per poll. The claim is the dose itself (recorded
 * `reported: false`, counted at once for the limits, the stock and the judging) and the
 * actuator's `claim_until`, which every other read, on any instance, answers `claimed` until.
 * The run report completes the claim (actuators/service.ts `markActivated`).
 *
 * A claim that cannot be committed — the store refuses the write or does not answer in time, or
 * this instance has lost the relay to the others — answers `store_unavailable`, and dosing counts
 * as held (`/healthz`) until a claim commits again.
 */
import type { ChangeBus } from '../core/bus.js';
import { activationJson } from '../core/json-text.js';
import type { Logger } from '../core/logger.js';
import { isPromise } from '../core/maybe-promise.js';
import type { KeptDecision } from '../actuators/kept-decisions.js';
import type { ActuatorWithInterlocks } from '../core/actuator-view.js';
import { type Decision, doseVolume, SAFETY_STATUS, stockAfterDose } from '../safety/index.js';
import {
  isDiskFull,
  isStoreUnavailable,
  type MaybePromise,
  type Store,
  type StoredActivation,
  type StoredActuator,
} from '../store/index.js';
import { claimEnd, claimRefusal, isClaimOpen, overClaim, withoutStore } from './rules.js';
import { manualRunRefusal } from './manual.js';

/** How long a read waits for its claim to commit before it answers `store_unavailable`. */
export const CLAIM_WAIT_MS = 5000;

export interface ClaimDeps {
  store: Pick<Store, 'transaction'>;
  bus: ChangeBus;
  now: () => number;
  log: Logger;
  /** CLAIM_GRACE: after the run, how long the claim stays open for its report. */
  graceMs: number;
  /** The decision now, noted as the controller's poll (actuators/service.ts `polledState`). */
  polledState(actuatorId: number): MaybePromise<KeptDecision | undefined>;
  /** The actuator as the decision inputs keep it (its claim, its manual run). */
  keptActuator(
    actuatorId: number,
  ): Pick<StoredActuator, 'claim_until' | 'manual_run_seconds' | 'activation_duration' | 'activation_period'> | undefined;
  /** Whether this instance hears the others' changes (always, on a store of one process). */
  relayUp(): boolean;
  /** Tests shorten the wait. */
  waitMs?: number;
}

type Outcome =
  | { kind: 'made'; actuator: ActuatorWithInterlocks; dose: StoredActivation }
  | { kind: 'refused'; reason: 'claimed' | 'disabled' | 'locked_out'; row: StoredActuator }
  | { kind: 'gone' };

const answerOf = (decision: Decision): KeptDecision => ({ decision, json: activationJson(decision) });

/** Rejects when `promise` has not settled within `ms` (the promise itself runs on). */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the claim was not committed within ${ms} ms`)), ms);
    timer.unref?.();
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

export function claimService({ store, bus, now, log, graceMs, polledState, keptActuator, relayUp, waitMs = CLAIM_WAIT_MS }: ClaimDeps) {
  /** The last claim could not be committed: dosing is held until one is. */
  let failing = false;
  /** The `claimed` answer of each actuator's open claim, made once per claim and base answer. */
  const claimedAnswers = new Map<number, { until: number; base: KeptDecision; answer: KeptDecision }>();

  function claimedAnswer(actuatorId: number, base: KeptDecision, until: number): KeptDecision {
    const known = claimedAnswers.get(actuatorId);
    if (known && known.until === until && known.base === base) return known.answer;
    const decision = overClaim(base.decision, until, now());
    const answer = decision === base.decision ? base : answerOf(decision);
    claimedAnswers.set(actuatorId, { until, base, answer });
    return answer;
  }

  /** The claim's transaction: on the actuator's locked row, one reader of any instance claims. */
  function commit(actuatorId: number, seconds: number, manual: boolean): Promise<Outcome> {
    return store.transaction(async (tx): Promise<Outcome> => {
      const at = now();
      const row = await tx.actuators.getForUpdate(actuatorId);
      if (!row) return { kind: 'gone' };
      const refusal = claimRefusal(row, at, manual);
      if (refusal) return { kind: 'refused', reason: refusal, row };
      const volume = doseVolume(seconds, row.flow_ml_per_s);
      const newest = await tx.measurements.last(row.sensor_id);
      const dose = await tx.activations.record({
        actuator_id: actuatorId,
        activated_at: at,
        duration: seconds,
        value_before: newest?.value ?? null,
        volume_ml: volume,
        reported: false,
        manual,
      });
      const actuator = await tx.actuators.claim(actuatorId, {
        at,
        until: claimEnd(at, seconds, graceMs),
        activationId: dose.activation_id,
        stockMl: stockAfterDose(row.stock_ml, volume),
        manualDone: manual,
      });
      if (!actuator) return { kind: 'gone' };
      return { kind: 'made', actuator: { ...actuator, interlocks: await tx.interlocks.of(actuatorId) }, dose };
    });
  }

  async function claim(actuatorId: number, base: KeptDecision, seconds: number, manual: boolean): Promise<KeptDecision | undefined> {
    let outcome: Outcome;
    try {
      outcome = await within(commit(actuatorId, seconds, manual), waitMs);
    } catch (error) {
      if (!failing) log.warn({ err: error, actuatorId }, 'a dose could not be claimed: dosing held until the store answers');
      failing = true;
      return answerOf(withoutStore(base.decision));
    }
    failing = false;
    if (outcome.kind === 'gone') return undefined;
    if (outcome.kind === 'refused') {
      const { reason, row } = outcome;
      if (reason === 'claimed') {
        const until = isClaimOpen(row.claim_until, now()) ? row.claim_until : row.last_activated + row.activation_period * 1000;
        return answerOf(overClaim(base.decision, until, now()));
      }
      const status =
        reason === 'disabled'
          ? SAFETY_STATUS.disabled
          : SAFETY_STATUS.lockedOut({ since: row.lockout_since ?? now(), reason: row.lockout_reason ?? '' });
      return answerOf({ ...base.decision, activate: false, reason, status });
    }
    const { actuator, dose } = outcome;
    // The actuator's claim first (every reader answers `claimed` from here), then the dose it counts.
    bus.publish('actuator', { action: 'activated', actuator });
    bus.publish('dose', { dose });
    const told: Decision = manual
      ? { ...base.decision, activate: true, reason: 'ok', status: `Manual run of ${seconds} s`, duration: seconds }
      : { ...base.decision, activate: true };
    return answerOf(told);
  }

  /** The answer to a controller's read, given the decision now: a claim made, `claimed`, or the decision as it is. */
  function settle(actuatorId: number, base: KeptDecision | undefined): MaybePromise<KeptDecision | undefined> {
    if (!base) return undefined;
    const kept = keptActuator(actuatorId);
    const claimUntil = kept?.claim_until ?? null;
    if (isClaimOpen(claimUntil, now())) return claimedAnswer(actuatorId, base, claimUntil);
    const manualSeconds = kept?.manual_run_seconds ?? null;
    const manual = manualSeconds !== null && manualRunRefusal(base.decision.reason) === null;
    if (!manual && !base.decision.activate) return base;
    // A timed output's window (lights, irrigation) is re-asserted at every read: not a dose to claim.
    if (!manual && base.decision.scheduleChangesAt !== undefined) return base;
    // Cut off from the others (dosing shows held while it lasts): another instance may have claimed meanwhile.
    if (!relayUp()) return answerOf(withoutStore(base.decision));
    return claim(actuatorId, base, manual ? manualSeconds : base.decision.duration, manual);
  }

  /**
   * The decision could not be read (what it reads was not kept and the store did not answer): the
   * pump waits, told why, rather than given an error.
   */
  function unreadable(actuatorId: number, error: unknown): KeptDecision {
    if (!isStoreUnavailable(error) && !isDiskFull(error)) throw error;
    failing = true;
    const kept = keptActuator(actuatorId);
    const decision: Decision = {
      activate: false,
      status: '',
      reason: 'ok',
      duration: kept?.activation_duration ?? 0,
      period: kept?.activation_period ?? 0,
      conditionMet: false,
    };
    return answerOf(withoutStore(decision));
  }

  return {
    /**
     * A controller's read (the HTTP state read; the MQTT state topic of an `mqtt` actuator): the
     * decision, with a claim committed before any `activate: true`. At once, without a promise,
     * for every answer that is not a claim made (the polls between doses). Undefined for an
     * actuator that does not exist.
     */
    read(actuatorId: number): MaybePromise<KeptDecision | undefined> {
      const base = polledState(actuatorId);
      if (!isPromise(base)) return settle(actuatorId, base);
      return base.then(
        (b) => settle(actuatorId, b),
        (error: unknown) => unreadable(actuatorId, error),
      );
    },

    /** As `read`, for a decision already made (the MQTT state topic of an `mqtt` actuator). */
    settle,

    /** `/healthz`: held while the last claim could not be committed or this instance has lost the relay. */
    dosing(): 'ok' | 'held' {
      return failing || !relayUp() ? 'held' : 'ok';
    },
  };
}

export type ClaimService = ReturnType<typeof claimService>;

/**
 * The reasons a dosing decision gives, in the order they are checked (docs/api.md §14, §15): the
 * first that holds decides. `reason` is the stable code clients branch on; `status` the sentence a
 * person reads. The statuses that existed before `reason` keep their exact texts (clients read them).
 */
import { STATUS } from '../domain/activation.js';
import { isWithinYears } from '../domain/instants.js';
import type { Lockout } from './inputs.js';
import type { LimitKind } from './limits.js';
import { describeRange, type ValidRange } from './validity.js';

export const REASONS = [
  'disabled',
  'paused',
  'locked_out',
  'unusual',
  'no_measurement',
  'restarted',
  'stale',
  'invalid',
  'stuck',
  'interlock',
  'empty',
  'waiting',
  'zero_duration',
  'limit',
  // Dosing that aims: another part of the prototype's sequence goes first (aims/sequence.ts).
  'sequenced',
  'ok',
] as const;
export type Reason = (typeof REASONS)[number];

/**
 * Not rules of decide(): where a controller is told to act, a decision to run becomes one of these
 * when the dose is claimed by another read or cannot be claimed (claims/).
 */
export const CLAIM_REASONS = ['claimed', 'store_unavailable'] as const;
export type ClaimReason = (typeof CLAIM_REASONS)[number];

export interface Decision {
  activate: boolean;
  status: string;
  reason: Reason | ClaimReason;
  /** The actuator's activation_duration and activation_period, unchanged. */
  duration: number;
  period: number;
  /**
   * Whether the condition of §3.3 holds on the sensor's newest value, whatever the reason (false
   * without a reading). The `limit` alert is raised while `reason` is `limit` and this is true: a
   * limit holding a pump that would otherwise run.
   */
  conditionMet: boolean;
  /** A set point's aim (aims/): shown in the state read; absent without a set point. */
  aim?: { setpoint: number | null; error: number | null; gain: number | null };
  /** A timed output's next on/off instant (aims/), until which its `duration` counts down. */
  scheduleChangesAt?: number | null;
  /** A sequenced wait's end by time alone (aims/), null when it ends with another's decision. */
  sequenceUntil?: number | null;
}

/** An instant for a sentence; one that cannot be written as a date is written as it is. */
const instant = (ms: number) => (isWithinYears(ms) ? new Date(ms).toISOString() : String(ms));

export const SAFETY_STATUS = {
  disabled: STATUS.disabled,
  paused: (until: number) => `Prototype paused until ${instant(until)}`,
  lockedOut: (lockout: Lockout) => `Locked out since ${instant(lockout.since)}: ${lockout.reason}`,
  unusual: (lockout: Lockout) => `Held since ${instant(lockout.since)}: ${lockout.reason}`,
  noMeasurement: STATUS.noMeasurement,
  restarted: 'Waiting for a measurement received since the service started',
  stale: STATUS.stale,
  invalid: (value: number, range: ValidRange) => `Measurement ${value} outside the valid range ${describeRange(range)}`,
  stuck: (value: number, since: number) => `Sensor possibly stuck: ${value} unchanged since ${instant(since)}`,
  empty: 'Stock empty: refill the bottle',
  waiting: STATUS.waiting,
  zeroDuration: STATUS.zeroDuration,
  limit: (kind: LimitKind, max: number | null) =>
    kind === 'doses'
      ? `Dose limit: at most ${max} doses per hour`
      : kind === 'seconds'
        ? `Dose limit: at most ${max} s of run time per 24 h`
        : `Dose limit: at most ${max} ml per 24 h`,
  limitUnknown: 'Dose limit: the recent doses are unknown',
  ok: STATUS.ok,
  claimed: (until: number) => `Claimed: another read was told to run, until ${instant(until)}`,
  storeUnavailable: 'Dose not recorded: the store is unavailable, the pump waits',
} as const;

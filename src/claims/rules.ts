/**
 * A dose is a claim (docs/safety.md "A dose is a claim"): the pure rules that turn the decision of
 * safety/decide.ts into what a controller that is told to act hears. No I/O; instants are epoch ms.
 *
 * - A decision to run is answered `activate: true` only for the read whose claim was committed.
 * - While a claim is open (until its report comes, or its run and the grace are over), every other
 *   read answers `claimed`, unless a hold decides (disabled, a stale reading…: it says more).
 * - A claim that could not be committed answers `store_unavailable`: the pump waits.
 */
import { type Decision, SAFETY_STATUS } from '../safety/index.js';

/**
 * The decisions `claimed` stands in for while a claim is open: those of a pump free to run on its
 * reading. Every hold says more to a grower than `claimed` (activate is false either way).
 */
const CLAIMABLE: ReadonlySet<Decision['reason']> = new Set(['ok', 'waiting', 'limit']);

/** Whether a claim is open at `now`: made, and its run with its grace not over. */
export function isClaimOpen(claimUntil: number | null | undefined, now: number): claimUntil is number {
  return typeof claimUntil === 'number' && now < claimUntil;
}

/** When a claim made at `at` for a run of `seconds` ends: the run, then the grace for its report. */
export function claimEnd(at: number, seconds: number, graceMs: number): number {
  return at + seconds * 1000 + graceMs;
}

/**
 * What a read is answered while the actuator's claim is open: `claimed` over the decision, unless
 * a hold decides. The decision as it is when no claim is open.
 */
export function overClaim(decision: Decision, claimUntil: number | null | undefined, now: number): Decision {
  if (!isClaimOpen(claimUntil, now) || !CLAIMABLE.has(decision.reason)) return decision;
  return { ...decision, activate: false, reason: 'claimed', status: SAFETY_STATUS.claimed(claimUntil) };
}

/** What a decision to run becomes when its claim could not be committed. */
export function withoutStore(decision: Decision): Decision {
  return { ...decision, activate: false, reason: 'store_unavailable', status: SAFETY_STATUS.storeUnavailable };
}

/** What the store says of a claim asked for at `at`, in the transaction that would make it. */
export interface StoredClaimState {
  claim_until: number | null;
  last_activated: number;
  activation_period: number;
  enabled: boolean;
  lockout_since: number | null;
}

/**
 * Whether the store lets a claim be made at `at` (checked on the actuator's locked row, so that of
 * two readers on any instances one claims and the other is told `claimed`): no claim open, and
 * — for a claim the decision made — its period elapsed since the last run (another instance
 * recorded a run this one has not heard of yet). A manual run waits for no period, but for the
 * same holds the decision checks in the store: enabled, not locked out.
 */
export function claimRefusal(row: StoredClaimState, at: number, manual: boolean): 'claimed' | 'disabled' | 'locked_out' | null {
  if (isClaimOpen(row.claim_until, at)) return 'claimed';
  if (!row.enabled) return 'disabled';
  if (row.lockout_since !== null) return 'locked_out';
  if (!manual && at < row.last_activated + row.activation_period * 1000) return 'claimed';
  return null;
}

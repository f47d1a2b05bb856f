import { describe, expect, it } from 'vitest';
import { claimEnd, claimRefusal, isClaimOpen, overClaim, withoutStore } from '../../src/claims/rules.js';
import { manualRunRefusal } from '../../src/claims/manual.js';
import type { Decision } from '../../src/safety/index.js';

/** The pure rules of a dose being a claim (src/claims/rules.ts, manual.ts): every branch and boundary. */
const AT = Date.UTC(2026, 10, 22, 12);
const decision = (reason: Decision['reason'], activate = false): Decision => ({
  activate,
  status: `status of ${reason}`,
  reason,
  duration: 3,
  period: 60,
  conditionMet: activate,
});

describe('isClaimOpen', () => {
  it('is open strictly before its end, closed at it and after, and never without a claim', () => {
    expect(isClaimOpen(AT + 1, AT)).toBe(true);
    expect(isClaimOpen(AT, AT)).toBe(false);
    expect(isClaimOpen(AT - 1, AT)).toBe(false);
    expect(isClaimOpen(null, AT)).toBe(false);
    expect(isClaimOpen(undefined, AT)).toBe(false);
  });
});

describe('claimEnd', () => {
  it('is the run, then the grace', () => {
    expect(claimEnd(AT, 3, 30_000)).toBe(AT + 33_000);
    expect(claimEnd(AT, 0.5, 0)).toBe(AT + 500);
  });
});

describe('overClaim', () => {
  it('answers claimed over ok (to run or not), waiting and limit while the claim is open', () => {
    for (const base of [decision('ok', true), decision('ok'), decision('waiting'), decision('limit')]) {
      const answer = overClaim(base, AT + 1, AT);
      expect(answer).toMatchObject({ activate: false, reason: 'claimed', duration: 3, period: 60 });
      expect(answer.status).toContain(new Date(AT + 1).toISOString());
    }
  });

  it('leaves every hold as it is: it says more than claimed', () => {
    for (const reason of [
      'disabled',
      'paused',
      'locked_out',
      'no_measurement',
      'restarted',
      'stale',
      'invalid',
      'stuck',
      'interlock',
      'empty',
      'zero_duration',
    ] as const) {
      const base = decision(reason);
      expect(overClaim(base, AT + 1, AT)).toBe(base);
    }
  });

  it('leaves the decision as it is once the claim has ended, or without one', () => {
    const base = decision('ok', true);
    expect(overClaim(base, AT, AT)).toBe(base);
    expect(overClaim(base, null, AT)).toBe(base);
  });
});

describe('withoutStore', () => {
  it('turns a decision to run into store_unavailable, activate false, keeping duration and period', () => {
    expect(withoutStore(decision('ok', true))).toMatchObject({ activate: false, reason: 'store_unavailable', duration: 3, period: 60 });
  });
});

describe('claimRefusal', () => {
  const row = { claim_until: null, last_activated: AT - 60_000, activation_period: 60, enabled: true, lockout_since: null };
  it('lets a claim be made when none is open, the pump is enabled, not locked out, and its period has elapsed (exactly)', () => {
    expect(claimRefusal(row, AT, false)).toBeNull();
  });
  it('refuses while another claim is open, whether by the decision or by hand; not at its end', () => {
    expect(claimRefusal({ ...row, claim_until: AT + 1 }, AT, false)).toBe('claimed');
    expect(claimRefusal({ ...row, claim_until: AT + 1 }, AT, true)).toBe('claimed');
    expect(claimRefusal({ ...row, claim_until: AT }, AT, false)).toBeNull();
  });
  it('refuses a disabled or locked-out pump, by hand too', () => {
    expect(claimRefusal({ ...row, enabled: false }, AT, true)).toBe('disabled');
    expect(claimRefusal({ ...row, lockout_since: AT - 1 }, AT, true)).toBe('locked_out');
  });
  it('refuses a decision’s claim one millisecond inside the period (another instance ran it); a manual run waits for no period', () => {
    expect(claimRefusal({ ...row, last_activated: AT - 59_999 }, AT, false)).toBe('claimed');
    expect(claimRefusal({ ...row, last_activated: AT - 59_999 }, AT, true)).toBeNull();
  });
});

describe('manualRunRefusal', () => {
  it('refuses a run by hand while disabled, paused, locked out, interlocked, empty or at a limit', () => {
    for (const reason of ['disabled', 'paused', 'locked_out', 'interlock', 'empty', 'limit'] as const)
      expect(manualRunRefusal(reason)).toBe(reason);
  });
  it('lets it run past the reading and the period', () => {
    for (const reason of [
      'ok',
      'waiting',
      'no_measurement',
      'restarted',
      'stale',
      'invalid',
      'stuck',
      'zero_duration',
      'claimed',
      'store_unavailable',
    ] as const)
      expect(manualRunRefusal(reason)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { limitHolds } from '../../src/alerts/actuator-watch.js';
import { isOutside, kindOf, readingLevel, sensorLevel, severityOf } from '../../src/alerts/levels.js';
import { nextCheckAt, transition } from '../../src/alerts/transitions.js';
import { runAfter } from '../../src/alerts/watched.js';
import { expectedEffectReason, lockoutReason, reversedReason, unusualReason } from '../../src/safety/lockout-reason.js';

const T = { threshold_critically_low: 3, threshold_low: 4, threshold_high: 9, threshold_critically_high: 10 };
const PH = { min: 0, max: 14 };
const OK = { level: 'ok' as const, okSince: null, calmSince: null };

describe('levels of trust', () => {
  it('invalid outside the range, bounds included in it; NaN outside; no range: never', () => {
    expect([-0.01, 0, 14, 14.01, Number.NaN].map((v) => isOutside(v, PH))).toEqual([true, false, false, true, true]);
    expect(isOutside(1e9, undefined)).toBe(false);
    expect(isOutside(-5, { min: null, max: 3 })).toBe(false);
    expect([readingLevel(14.5, T, PH), readingLevel(14, T, PH), readingLevel(6, T, PH)]).toEqual(['invalid', 'critically_high', 'ok']);
  });

  it('stale before invalid before stuck before the thresholds', () => {
    const at = 1000;
    expect(sensorLevel({ value: 20, timestamp: 0 }, T, at, 10, { range: PH, stuck: true })).toBe('stale');
    expect(sensorLevel({ value: 20, timestamp: at }, T, at, 10, { range: PH, stuck: true })).toBe('invalid');
    expect(sensorLevel({ value: 12, timestamp: at }, T, at, 10, { range: PH, stuck: true })).toBe('stuck');
    expect(sensorLevel({ value: 12, timestamp: at }, T, at, 10, { range: PH })).toBe('critically_high');
  });

  it('invalid alerts are critical, stuck ones warnings', () => {
    expect([kindOf('invalid'), severityOf('invalid'), kindOf('stuck'), severityOf('stuck')]).toEqual([
      'invalid',
      'critical',
      'stuck',
      'warning',
    ]);
  });
});

describe('stuck and invalid alert transitions', () => {
  it('stuck raises beside the value alerts and clears when no longer stuck', () => {
    const raised = transition(OK, [], { level: 'ok', value: 6, stuck: true }, T, 0, 60_000);
    expect(raised.actions).toEqual([{ type: 'raise', kind: 'stuck', severity: 'warning', value: 6, peak: null }]);
    const stuck = { alert_id: 1, kind: 'stuck' as const, severity: 'warning' as const, peak: null, last_value: 6 };
    expect(transition(OK, [stuck], { level: 'ok', value: 6, stuck: true }, T, 1, 60_000).actions).toEqual([]);
    expect(transition(OK, [stuck], { level: 'ok', value: 6.1, stuck: false }, T, 2, 60_000).actions).toEqual([
      { type: 'clear', alertId: 1, lastValue: 6.1, peak: null },
    ]);
  });

  it('an invalid alert never de-escalates; it clears after clearAfterMs at ok', () => {
    const invalid = { alert_id: 2, kind: 'invalid' as const, severity: 'critical' as const, peak: null, last_value: 15 };
    const high = transition(
      { level: 'invalid', okSince: null, calmSince: 0 },
      [invalid],
      { level: 'high', value: 9.5 },
      T,
      120_000,
      60_000,
    );
    expect(high.actions).toEqual([{ type: 'clear', alertId: 2, lastValue: 9.5, peak: null }, expect.objectContaining({ type: 'raise' })]);
    const ok = transition({ level: 'ok', okSince: 0, calmSince: 0 }, [invalid], { level: 'ok', value: 6 }, T, 59_999, 60_000);
    expect(ok.actions.filter((a) => a.type !== 'update')).toEqual([]);
    expect(transition(ok.state, [invalid], { level: 'ok', value: 6 }, T, 60_000, 60_000).actions).toEqual([
      { type: 'clear', alertId: 2, lastValue: 6, peak: null },
    ]);
  });

  it('the next check includes the stuck instant', () => {
    expect(nextCheckAt(OK, 0, [], () => 5000, 60_000, 3000)).toBe(3000);
    expect(nextCheckAt(OK, 0, [], () => 5000, 60_000, null)).toBe(5000);
  });

  it('a run of equal readings grows up to 3 and starts over with another value', () => {
    const newest = { measurement_id: 1, value: 7, timestamp: 100 };
    expect(runAfter(null, undefined, { value: 7, timestamp: 100 })).toEqual({ count: 1, since: 100 });
    expect(runAfter({ count: 1, since: 100 }, newest, { value: 7, timestamp: 200 })).toEqual({ count: 2, since: 100 });
    expect(runAfter({ count: 3, since: 100 }, newest, { value: 7, timestamp: 300 })).toEqual({ count: 3, since: 100 });
    expect(runAfter({ count: 3, since: 100 }, newest, { value: 7.5, timestamp: 300 })).toEqual({ count: 1, since: 300 });
  });
});

describe('actuator alert rules', () => {
  it('a limit alert only while the limit holds back a pump whose condition holds', () => {
    const state = { activate: false, status: '', reason: 'ok', duration: 1, period: 1, conditionMet: false };
    expect(limitHolds({ ...state, reason: 'limit', conditionMet: true })).toBe(true);
    expect(limitHolds({ ...state, reason: 'limit', conditionMet: false })).toBe(false);
    expect(limitHolds({ ...state, reason: 'waiting', conditionMet: true })).toBe(false);
    expect(limitHolds(state)).toBe(false);
    expect(limitHolds({ ...state, conditionMet: true })).toBe(false);
  });

  it('the lockout reason says what did not move, which way, and by how much', () => {
    expect(lockoutReason(20, 'ph', 'high', 6.5, 0)).toBe('20 doses in a row did not move pH down by more than 0');
    expect(lockoutReason(5, 'ec', 'low', 1.2, 0.05)).toBe('5 doses in a row did not move EC up by more than 0.05');
    expect(lockoutReason(1, 'water_level', 'low_or_high', 30, 1)).toBe('1 dose did not move water level toward 30 by more than 1');
    expect(lockoutReason(20, 'ph', 'high', 6.5, null)).toBe("20 doses in a row did not move pH down beyond the probe's noise");
    expect(reversedReason(3, 'ph')).toMatch(/^3 doses in a row: pH moves the wrong way after doses/);
    expect(expectedEffectReason(14, 'ph', 1.2999, 2.5)).toMatch(
      /^14 doses in a row did not move pH, though together they should have moved it by about 1.3 \(more than half the 2.5 to the critical threshold\)/,
    );
    expect(unusualReason(2.345, 1, 'ml', 21600)).toMatch(
      /^Unusual consumption: 2.35× the usual 1 ml per 6 h\. Check the probe's calibration/,
    );
  });
});

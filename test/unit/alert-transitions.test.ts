import { describe, expect, it } from 'vitest';
import { isStale, kindOf, sensorLevel, severityOf, staleAt, valueLevel } from '../../src/alerts/levels.js';
import { type ActiveAlert, nextCheckAt, transition } from '../../src/alerts/transitions.js';
import { nextAttempt } from '../../src/alerts/webhooks.js';

const T = { threshold_critically_low: 10, threshold_low: 20, threshold_high: 30, threshold_critically_high: 40 };
const CLEAR = 60_000;
const high = (over: Partial<ActiveAlert> = {}): ActiveAlert => ({
  alert_id: 1,
  kind: 'high',
  severity: 'warning',
  peak: 35,
  last_value: 35,
  ...over,
});

describe('valueLevel', () => {
  it.each([
    [9.999, 'critically_low'],
    [10, 'low'],
    [19.999, 'low'],
    [20, 'ok'],
    [25, 'ok'],
    [30, 'ok'],
    [30.001, 'high'],
    [40, 'high'],
    [40.001, 'critically_high'],
    [-Infinity, 'critically_low'],
  ])('%s is %s (a value equal to a threshold is not beyond it)', (value, level) => {
    expect(valueLevel(value, T)).toBe(level);
  });

  it('equal thresholds leave no room for a warning level', () => {
    const tight = { threshold_critically_low: 5, threshold_low: 5, threshold_high: 5, threshold_critically_high: 5 };
    expect([4.9, 5, 5.1].map((v) => valueLevel(v, tight))).toEqual(['critically_low', 'ok', 'critically_high']);
  });
});

describe('staleness', () => {
  it('is stale strictly after STALE_AFTER, at the first millisecond staleAt names', () => {
    expect(isStale(0, 1000, 1000)).toBe(false);
    expect(isStale(0, 1001, 1000)).toBe(true);
    expect(staleAt(0, 1000)).toBe(1001);
    expect(staleAt(5, 1000.5)).toBe(1006);
    expect(isStale(5, 1005, 1000.5)).toBe(false);
    expect(isStale(5, 1006, 1000.5)).toBe(true);
  });

  it('sensorLevel: null without a measurement, stale when old, else the value level', () => {
    expect(sensorLevel(undefined, T, 0, 1000)).toBeNull();
    expect(sensorLevel({ value: 50, timestamp: 0 }, T, 1001, 1000)).toBe('stale');
    expect(sensorLevel({ value: 50, timestamp: 0 }, T, 1000, 1000)).toBe('critically_high');
  });

  it('kinds and severities', () => {
    expect([
      kindOf('critically_low'),
      kindOf('low'),
      kindOf('ok'),
      kindOf('high'),
      kindOf('critically_high'),
      kindOf('stale'),
      kindOf(null),
    ]).toEqual(['low', 'low', undefined, 'high', 'high', 'stale', undefined]);
    expect([severityOf('low'), severityOf('critically_low'), severityOf('critically_high'), severityOf('stale')]).toEqual([
      'warning',
      'critical',
      'critical',
      'warning',
    ]);
  });
});

describe('transition', () => {
  const ok = { level: 'ok' as const, okSince: null };

  it('leaving ok raises one alert of the kind, critical for the critical levels', () => {
    expect(transition(ok, [], { level: 'high', value: 31 }, T, 0, CLEAR).actions).toEqual([
      { type: 'raise', kind: 'high', severity: 'warning', value: 31, peak: 31 },
    ]);
    expect(transition(ok, [], { level: 'critically_low', value: 5 }, T, 0, CLEAR).actions).toEqual([
      { type: 'raise', kind: 'low', severity: 'critical', value: 5, peak: 5 },
    ]);
  });

  it('staying at ok without alerts does nothing', () => {
    expect(transition(ok, [], { level: 'ok', value: 25 }, T, 0, CLEAR)).toEqual({ state: ok, actions: [] });
  });

  it('escalates and de-escalates the same alert', () => {
    const up = transition({ level: 'high', okSince: null }, [high()], { level: 'critically_high', value: 45 }, T, 0, CLEAR);
    expect(up.actions).toEqual([{ type: 'escalate', alertId: 1, severity: 'critical', lastValue: 45, peak: 45 }]);
    const down = transition(
      { level: 'critically_high', okSince: null },
      [high({ severity: 'critical', peak: 45 })],
      { level: 'high', value: 33 },
      T,
      0,
      CLEAR,
    );
    expect(down.actions).toEqual([{ type: 'escalate', alertId: 1, severity: 'warning', lastValue: 33, peak: 45 }]);
  });

  it('follows the newest value and the furthest, counting values seen in between beyond the threshold only', () => {
    const step = transition({ level: 'high', okSince: null }, [high()], { level: 'high', value: 32, seen: [38, 25] }, T, 0, CLEAR);
    expect(step.actions).toEqual([{ type: 'update', alertId: 1, lastValue: 32, peak: 38 }]);
    expect(transition({ level: 'high', okSince: null }, [high()], { level: 'high', value: 35 }, T, 0, CLEAR).actions).toEqual([]);
  });

  it('back at ok starts the clear-after; the alert clears only once ok has lasted ALERT_CLEAR_AFTER', () => {
    const back = transition({ level: 'high', okSince: null }, [high()], { level: 'ok', value: 25 }, T, 1000, CLEAR);
    expect(back.state).toEqual({ level: 'ok', okSince: 1000 });
    expect(back.actions).toEqual([{ type: 'update', alertId: 1, lastValue: 25, peak: 35 }]);
    const early = transition(back.state, [high({ last_value: 25 })], { level: 'ok', value: 25 }, T, 1000 + CLEAR - 1, CLEAR);
    expect(early).toEqual({ state: { level: 'ok', okSince: 1000 }, actions: [] });
    const due = transition(back.state, [high({ last_value: 25 })], { level: 'ok', value: 25 }, T, 1000 + CLEAR, CLEAR);
    expect(due).toEqual({ state: { level: 'ok', okSince: null }, actions: [{ type: 'clear', alertId: 1, lastValue: 25, peak: 35 }] });
  });

  it('a value wavering across the threshold keeps the one alert and starts the clear-after over', () => {
    const out = transition({ level: 'ok', okSince: 1000 }, [high({ last_value: 25 })], { level: 'high', value: 31 }, T, 20_000, CLEAR);
    expect(out.state).toEqual({ level: 'high', okSince: null });
    expect(out.actions).toEqual([{ type: 'update', alertId: 1, lastValue: 31, peak: 35 }]);
  });

  it('ALERT_CLEAR_AFTER of zero clears at once', () => {
    expect(transition({ level: 'high', okSince: null }, [high()], { level: 'ok', value: 25 }, T, 5, 0).actions).toEqual([
      { type: 'clear', alertId: 1, lastValue: 25, peak: 35 },
    ]);
  });

  it('crossing to the other side clears the old alert at once and raises the new one', () => {
    const out = transition({ level: 'high', okSince: null }, [high()], { level: 'low', value: 15 }, T, 0, CLEAR);
    expect(out.actions).toEqual([
      { type: 'clear', alertId: 1, lastValue: 15, peak: 35 },
      { type: 'raise', kind: 'low', severity: 'warning', value: 15, peak: 15 },
    ]);
  });

  it('stale raises a stale alert, keeps the others, and the next measurement clears it', () => {
    const stale = transition({ level: 'high', okSince: null }, [high()], { level: 'stale' }, T, 0, CLEAR);
    expect(stale).toEqual({
      state: { level: 'stale', okSince: null },
      actions: [{ type: 'raise', kind: 'stale', severity: 'warning', value: null, peak: null }],
    });
    const staleAlert: ActiveAlert = { alert_id: 2, kind: 'stale', severity: 'warning', peak: null, last_value: null };
    expect(transition(stale.state, [high(), staleAlert], { level: 'stale' }, T, 5, CLEAR).actions).toEqual([]);
    const back = transition(stale.state, [high(), staleAlert], { level: 'ok', value: 25 }, T, 10, CLEAR);
    expect(back.actions).toEqual([
      { type: 'clear', alertId: 2, lastValue: null, peak: null },
      { type: 'update', alertId: 1, lastValue: 25, peak: 35 },
    ]);
    expect(back.state).toEqual({ level: 'ok', okSince: 10 });
  });
});

describe('transition of a sensor that went quiet while a clear was pending', () => {
  const pending = { level: 'ok' as const, okSince: 1000 };
  const staleAlertRaise = { type: 'raise', kind: 'stale', severity: 'warning', value: null, peak: null };

  it('clears the alert first when its ok lasted ALERT_CLEAR_AFTER before turning stale', () => {
    const out = transition(pending, [high({ last_value: 25 })], { level: 'stale', staleSince: 1000 + CLEAR }, T, 10 * CLEAR, CLEAR);
    expect(out.actions).toEqual([{ type: 'clear', alertId: 1, lastValue: 25, peak: 35 }, staleAlertRaise]);
  });

  it('keeps it when the ok was shorter than ALERT_CLEAR_AFTER', () => {
    const out = transition(pending, [high({ last_value: 25 })], { level: 'stale', staleSince: 1000 + CLEAR - 1 }, T, 10 * CLEAR, CLEAR);
    expect(out.actions).toEqual([staleAlertRaise]);
  });
});

describe('nextCheckAt', () => {
  const staleAfter = (t: number) => t + 1001;
  it('the stale instant, and the clear instant while ok with an alert active', () => {
    expect(nextCheckAt({ level: 'ok', okSince: null }, 0, false, staleAfter, CLEAR)).toBe(1001);
    expect(nextCheckAt({ level: 'ok', okSince: 500 }, 0, true, staleAfter, 100)).toBe(600);
    expect(nextCheckAt({ level: 'stale', okSince: null }, 0, true, staleAfter, CLEAR)).toBeUndefined();
    expect(nextCheckAt({ level: null, okSince: null }, undefined, false, staleAfter, CLEAR)).toBeUndefined();
  });
});

describe('nextAttempt', () => {
  const timing = { retryForMs: 60_000, firstDelayMs: 1000, maxDelayMs: 16_000 };
  it('doubles from the first delay up to the largest, never past the deadline, then gives up', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => nextAttempt(0, n, 0, timing))).toEqual([1000, 2000, 4000, 8000, 16_000, 16_000]);
    expect(nextAttempt(0, 3, 58_000, timing)).toBe(60_000);
    expect(nextAttempt(0, 7, 60_000, timing)).toBeUndefined();
  });
});

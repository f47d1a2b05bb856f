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
  const ok = { level: 'ok' as const, okSince: null, calmSince: null };

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

  it('escalates the same alert at once on reaching a critical level', () => {
    const up = transition(
      { level: 'high', okSince: null, calmSince: null },
      [high()],
      { level: 'critically_high', value: 45 },
      T,
      0,
      CLEAR,
    );
    expect(up).toEqual({
      state: { level: 'critically_high', okSince: null, calmSince: null },
      actions: [{ type: 'escalate', alertId: 1, severity: 'critical', lastValue: 45, peak: 45 }],
    });
  });

  it('follows the newest value and the furthest, counting values seen in between beyond the threshold only', () => {
    const step = transition(
      { level: 'high', okSince: null, calmSince: null },
      [high()],
      { level: 'high', value: 32, seen: [38, 25] },
      T,
      0,
      CLEAR,
    );
    expect(step.actions).toEqual([{ type: 'update', alertId: 1, lastValue: 32, peak: 38 }]);
    expect(
      transition({ level: 'high', okSince: null, calmSince: null }, [high()], { level: 'high', value: 35 }, T, 0, CLEAR).actions,
    ).toEqual([]);
  });

  it('back at ok starts the clear-after; the alert clears only once ok has lasted ALERT_CLEAR_AFTER', () => {
    const back = transition({ level: 'high', okSince: null, calmSince: null }, [high()], { level: 'ok', value: 25 }, T, 1000, CLEAR);
    expect(back.state).toEqual({ level: 'ok', okSince: 1000, calmSince: null });
    expect(back.actions).toEqual([{ type: 'update', alertId: 1, lastValue: 25, peak: 35 }]);
    const early = transition(back.state, [high({ last_value: 25 })], { level: 'ok', value: 25 }, T, 1000 + CLEAR - 1, CLEAR);
    expect(early).toEqual({ state: { level: 'ok', okSince: 1000, calmSince: null }, actions: [] });
    const due = transition(back.state, [high({ last_value: 25 })], { level: 'ok', value: 25 }, T, 1000 + CLEAR, CLEAR);
    expect(due).toEqual({
      state: { level: 'ok', okSince: null, calmSince: null },
      actions: [{ type: 'clear', alertId: 1, lastValue: 25, peak: 35 }],
    });
  });

  it('a value wavering across the threshold keeps the one alert and starts the clear-after over', () => {
    const out = transition(
      { level: 'ok', okSince: 1000, calmSince: null },
      [high({ last_value: 25 })],
      { level: 'high', value: 31 },
      T,
      20_000,
      CLEAR,
    );
    expect(out.state).toEqual({ level: 'high', okSince: null, calmSince: null });
    expect(out.actions).toEqual([{ type: 'update', alertId: 1, lastValue: 31, peak: 35 }]);
  });

  it('ALERT_CLEAR_AFTER of zero clears at once', () => {
    expect(transition({ level: 'high', okSince: null, calmSince: null }, [high()], { level: 'ok', value: 25 }, T, 5, 0).actions).toEqual([
      { type: 'clear', alertId: 1, lastValue: 25, peak: 35 },
    ]);
  });

  it('crossing to the other side clears the old alert at once and raises the new one', () => {
    const out = transition({ level: 'high', okSince: null, calmSince: null }, [high()], { level: 'low', value: 15 }, T, 0, CLEAR);
    expect(out.actions).toEqual([
      { type: 'clear', alertId: 1, lastValue: 15, peak: 35 },
      { type: 'raise', kind: 'low', severity: 'warning', value: 15, peak: 15 },
    ]);
  });

  it('stale raises a stale alert, keeps the others, and the next measurement clears it', () => {
    const stale = transition({ level: 'high', okSince: null, calmSince: null }, [high()], { level: 'stale' }, T, 0, CLEAR);
    expect(stale).toEqual({
      state: { level: 'stale', okSince: null, calmSince: null },
      actions: [{ type: 'raise', kind: 'stale', severity: 'warning', value: null, peak: null }],
    });
    const staleAlert: ActiveAlert = { alert_id: 2, kind: 'stale', severity: 'warning', peak: null, last_value: null };
    expect(transition(stale.state, [high(), staleAlert], { level: 'stale' }, T, 5, CLEAR).actions).toEqual([]);
    const back = transition(stale.state, [high(), staleAlert], { level: 'ok', value: 25 }, T, 10, CLEAR);
    expect(back.actions).toEqual([
      { type: 'clear', alertId: 2, lastValue: null, peak: null },
      { type: 'update', alertId: 1, lastValue: 25, peak: 35 },
    ]);
    expect(back.state).toEqual({ level: 'ok', okSince: 10, calmSince: null });
  });
});

describe('de-escalation after ALERT_CLEAR_AFTER short of critical', () => {
  const critical = (over: Partial<ActiveAlert> = {}) => high({ severity: 'critical', peak: 45, last_value: 45, ...over });
  const atCritical = { level: 'critically_high' as const, okSince: null, calmSince: null };
  const deEscalate = (lastValue: number) => ({ type: 'escalate', alertId: 1, severity: 'warning', lastValue, peak: 45 });

  it('back at warning starts the wait and changes nothing else', () => {
    const back = transition(atCritical, [critical()], { level: 'high', value: 33 }, T, 1000, CLEAR);
    expect(back).toEqual({
      state: { level: 'high', okSince: null, calmSince: 1000 },
      actions: [{ type: 'update', alertId: 1, lastValue: 33, peak: 45 }],
    });
  });

  it('de-escalates at exactly ALERT_CLEAR_AFTER, not a millisecond before', () => {
    const waiting = { level: 'high' as const, okSince: null, calmSince: 1000 };
    const early = transition(waiting, [critical({ last_value: 33 })], { level: 'high', value: 33 }, T, 1000 + CLEAR - 1, CLEAR);
    expect(early).toEqual({ state: waiting, actions: [] });
    const due = transition(waiting, [critical({ last_value: 33 })], { level: 'high', value: 33 }, T, 1000 + CLEAR, CLEAR);
    expect(due).toEqual({ state: { level: 'high', okSince: null, calmSince: null }, actions: [deEscalate(33)] });
  });

  it('a value back over the critical bound during the wait ends it; the next one short of it starts it over', () => {
    const waiting = { level: 'high' as const, okSince: null, calmSince: 1000 };
    const over = transition(waiting, [critical({ last_value: 33 })], { level: 'critically_high', value: 41 }, T, 30_000, CLEAR);
    expect(over).toEqual({
      state: { level: 'critically_high', okSince: null, calmSince: null },
      actions: [{ type: 'update', alertId: 1, lastValue: 41, peak: 45 }],
    });
    const again = transition(over.state, [critical({ last_value: 41 })], { level: 'high', value: 33 }, T, 40_000, CLEAR);
    expect(again.state.calmSince).toBe(40_000);
    const notYet = transition(again.state, [critical({ last_value: 33 })], { level: 'high', value: 33 }, T, 1000 + CLEAR, CLEAR);
    expect(notYet.actions).toEqual([]);
    const due = transition(again.state, [critical({ last_value: 33 })], { level: 'high', value: 33 }, T, 40_000 + CLEAR, CLEAR);
    expect(due.actions).toEqual([deEscalate(33)]);
  });

  it('a critical value seen in between, though the newest is short of it, starts the wait over', () => {
    const waiting = { level: 'high' as const, okSince: null, calmSince: 1000 };
    const out = transition(waiting, [critical({ last_value: 33 })], { level: 'high', value: 33, seen: [33, 42] }, T, 1000 + CLEAR, CLEAR);
    expect(out).toEqual({ state: { level: 'high', okSince: null, calmSince: 1000 + CLEAR }, actions: [] });
  });

  it('a critical value seen on the other side in between starts it over too', () => {
    const waiting = { level: 'high' as const, okSince: null, calmSince: 1000 };
    const out = transition(waiting, [critical({ last_value: 33 })], { level: 'high', value: 33, seen: [5] }, T, 1000 + CLEAR, CLEAR);
    expect(out.actions).toEqual([]);
    expect(out.state.calmSince).toBe(1000 + CLEAR);
  });

  it('straight from critical to ok: the clear and the de-escalation fall due together, and it only clears', () => {
    const back = transition(atCritical, [critical()], { level: 'ok', value: 25 }, T, 1000, CLEAR);
    expect(back.state).toEqual({ level: 'ok', okSince: 1000, calmSince: 1000 });
    const pending = [critical({ last_value: 25 })];
    expect(transition(back.state, pending, { level: 'ok', value: 25 }, T, 1000 + CLEAR - 1, CLEAR).actions).toEqual([]);
    const due = transition(back.state, pending, { level: 'ok', value: 25 }, T, 1000 + CLEAR, CLEAR);
    expect(due).toEqual({
      state: { level: 'ok', okSince: null, calmSince: null },
      actions: [{ type: 'clear', alertId: 1, lastValue: 25, peak: 45 }],
    });
  });

  it('warning, then ok while the de-escalation waits: de-escalates when its wait is over, clears when the ok one is', () => {
    const atWarning = { level: 'high' as const, okSince: null, calmSince: 1000 };
    const ok = transition(atWarning, [critical({ last_value: 33 })], { level: 'ok', value: 25 }, T, 30_000, CLEAR);
    expect(ok.state).toEqual({ level: 'ok', okSince: 30_000, calmSince: 1000 });
    const down = transition(ok.state, [critical({ last_value: 25 })], { level: 'ok', value: 25 }, T, 1000 + CLEAR, CLEAR);
    expect(down).toEqual({ state: { level: 'ok', okSince: 30_000, calmSince: null }, actions: [deEscalate(25)] });
    const warning = high({ peak: 45, last_value: 25 });
    const clear = transition(down.state, [warning], { level: 'ok', value: 25 }, T, 30_000 + CLEAR, CLEAR);
    expect(clear.actions).toEqual([{ type: 'clear', alertId: 1, lastValue: 25, peak: 45 }]);
  });

  it('ok, then warning again while the de-escalation waits: the clear starts over, the de-escalation goes on', () => {
    const ok = { level: 'ok' as const, okSince: 30_000, calmSince: 1000 };
    const out = transition(ok, [critical({ last_value: 25 })], { level: 'high', value: 33 }, T, 40_000, CLEAR);
    expect(out.state).toEqual({ level: 'high', okSince: null, calmSince: 1000 });
  });

  it('crossing to the other side while it waits clears the alert at once and the wait with it', () => {
    const waiting = { level: 'high' as const, okSince: null, calmSince: 1000 };
    const out = transition(waiting, [critical({ last_value: 33 })], { level: 'low', value: 15 }, T, 2000, CLEAR);
    expect(out).toEqual({
      state: { level: 'low', okSince: null, calmSince: null },
      actions: [
        { type: 'clear', alertId: 1, lastValue: 15, peak: 45 },
        { type: 'raise', kind: 'low', severity: 'warning', value: 15, peak: 15 },
      ],
    });
  });

  it('the low side the same way: critically low to low waits, then de-escalates', () => {
    const low: ActiveAlert = { alert_id: 3, kind: 'low', severity: 'critical', peak: 5, last_value: 5 };
    const back = transition({ level: 'critically_low', okSince: null, calmSince: null }, [low], { level: 'low', value: 15 }, T, 0, CLEAR);
    expect(back.state.calmSince).toBe(0);
    const due = transition(back.state, [{ ...low, last_value: 15 }], { level: 'low', value: 15 }, T, CLEAR, CLEAR);
    expect(due.actions).toEqual([{ type: 'escalate', alertId: 3, severity: 'warning', lastValue: 15, peak: 5 }]);
  });

  it('no wait without a critical alert', () => {
    const out = transition({ level: 'high', okSince: null, calmSince: null }, [high()], { level: 'high', value: 33 }, T, 0, CLEAR);
    expect(out.state.calmSince).toBeNull();
  });

  it('ALERT_CLEAR_AFTER of zero de-escalates at once', () => {
    expect(transition(atCritical, [critical()], { level: 'high', value: 33 }, T, 5, 0).actions).toEqual([deEscalate(33)]);
  });

  it('no measurement left keeps the waits as they were', () => {
    const waiting = { level: 'high' as const, okSince: null, calmSince: 1000 };
    expect(transition(waiting, [critical()], { level: null }, T, 2000, CLEAR)).toEqual({ state: { ...waiting, level: null }, actions: [] });
  });

  it('gone quiet: de-escalated first when its wait was over before it turned stale, else the wait ends', () => {
    const waiting = { level: 'high' as const, okSince: null, calmSince: 1000 };
    const staleRaise = { type: 'raise', kind: 'stale', severity: 'warning', value: null, peak: null };
    const due = transition(waiting, [critical({ last_value: 33 })], { level: 'stale', staleSince: 1000 + CLEAR }, T, 10 * CLEAR, CLEAR);
    expect(due).toEqual({ state: { level: 'stale', okSince: null, calmSince: null }, actions: [deEscalate(33), staleRaise] });
    const short = transition(
      waiting,
      [critical({ last_value: 33 })],
      { level: 'stale', staleSince: 1000 + CLEAR - 1 },
      T,
      10 * CLEAR,
      CLEAR,
    );
    expect(short).toEqual({ state: { level: 'stale', okSince: null, calmSince: null }, actions: [staleRaise] });
  });
});

describe('transition of a sensor that went quiet while a clear was pending', () => {
  const pending = { level: 'ok' as const, okSince: 1000, calmSince: null };
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
    expect(nextCheckAt({ level: 'ok', okSince: null, calmSince: null }, 0, [], staleAfter, CLEAR)).toBe(1001);
    expect(nextCheckAt({ level: 'ok', okSince: 500, calmSince: null }, 0, [high()], staleAfter, 100)).toBe(600);
    expect(nextCheckAt({ level: 'stale', okSince: null, calmSince: null }, 0, [high()], staleAfter, CLEAR)).toBeUndefined();
    expect(nextCheckAt({ level: null, okSince: null, calmSince: null }, undefined, [], staleAfter, CLEAR)).toBeUndefined();
  });

  it('the de-escalation instant while a critical alert waits for it, whichever comes first', () => {
    const critical = [high({ severity: 'critical' })];
    expect(nextCheckAt({ level: 'high', okSince: null, calmSince: 500 }, 0, critical, staleAfter, 100)).toBe(600);
    expect(nextCheckAt({ level: 'high', okSince: null, calmSince: 500 }, 0, critical, staleAfter, CLEAR)).toBe(1001);
    expect(nextCheckAt({ level: 'ok', okSince: 550, calmSince: 500 }, 0, critical, staleAfter, 100)).toBe(600);
    expect(nextCheckAt({ level: 'high', okSince: null, calmSince: 500 }, 0, [high()], staleAfter, 100)).toBe(1001);
    expect(nextCheckAt({ level: null, okSince: null, calmSince: 500 }, undefined, critical, staleAfter, 100)).toBeUndefined();
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

import { describe, expect, it } from 'vitest';
import {
  anyLimitFreesAt,
  bindingLimits,
  dosesInLastHour,
  isInWindow,
  leavesWindowAt,
  limitBinds,
  limitFreesAt,
  mlInLastDay,
  secondsInLastDay,
  type DoseRecord,
  type LimitSettings,
} from '../../src/safety/index.js';

const NOW = 1_800_000_000_000;
const ago = (ms: number, duration = 5, volume_ml: number | null = null): DoseRecord => ({ activated_at: NOW - ms, duration, volume_ml });
const off: LimitSettings = {
  activation_duration: 5,
  max_doses_per_hour: null,
  max_seconds_per_day: null,
  max_ml_per_day: null,
  flow_ml_per_s: null,
};

describe('rolling windows', () => {
  it('a dose is inside while fewer than the window seconds have passed', () => {
    expect(isInWindow(NOW - 3599_999, NOW, 3600)).toBe(true);
    expect(isInWindow(NOW - 3600_000, NOW, 3600)).toBe(false);
    expect(isInWindow(NOW + 60_000, NOW, 3600)).toBe(true);
    expect(isInWindow(Number.NaN, NOW, 3600)).toBe(true);
  });

  it('counts doses in the last hour', () => {
    expect(dosesInLastHour([ago(0), ago(1000), ago(3599_999), ago(3600_000), ago(86_000_000)], NOW)).toBe(3);
    expect(dosesInLastHour([], NOW)).toBe(0);
  });

  it('sums run seconds in the last 24 h', () => {
    expect(secondsInLastDay([ago(1000, 5), ago(86_399_999, 2.5), ago(86_400_000, 100)], NOW)).toBe(7.5);
  });

  it('sums ml in the last 24 h; a dose without a volume counts at the flow given, or 0 without one', () => {
    const doses = [ago(1000, 5, 10), ago(2000, 5, null), ago(86_400_000, 5, 1000)];
    expect(mlInLastDay(doses, NOW, 3)).toBe(25);
    expect(mlInLastDay(doses, NOW, null)).toBe(10);
  });

  it('counts a stored volume that is not finite as Infinity, so the daily ml limit binds', () => {
    for (const volume of [Infinity, -Infinity, Number.NaN]) {
      expect(mlInLastDay([ago(1000, 5, volume), ago(2000, 5, 10)], NOW, 3)).toBe(Infinity);
      const settings = { ...off, flow_ml_per_s: 1, max_ml_per_day: 1e9 };
      expect(limitBinds('ml', settings, [ago(1000, 5, volume)], NOW)).toBe(true);
    }
  });

  it('a dose leaves its window at the exact millisecond', () => {
    expect(leavesWindowAt(ago(1000), 3600, NOW)).toBe(NOW + 3599_000);
    expect(leavesWindowAt({ activated_at: NOW - 0.4, duration: 5, volume_ml: null }, 3600, NOW)).toBe(NOW + 3600_000);
    expect(leavesWindowAt({ activated_at: Number.NaN, duration: 5, volume_ml: null }, 3600, NOW)).toBeNull();
  });
});

describe('limitBinds: one more dose would break it', () => {
  it('doses per hour: count + 1 > max', () => {
    const max = (n: number) => ({ ...off, max_doses_per_hour: n });
    expect(limitBinds('doses', max(3), [ago(1), ago(2)], NOW)).toBe(false);
    expect(limitBinds('doses', max(3), [ago(1), ago(2), ago(3)], NOW)).toBe(true);
    expect(limitBinds('doses', max(1), [], NOW)).toBe(false);
    expect(limitBinds('doses', max(0), [], NOW)).toBe(true);
  });

  it('seconds per day: used + this duration > max, equal allowed', () => {
    const max = (n: number, duration = 5) => ({ ...off, activation_duration: duration, max_seconds_per_day: n });
    expect(limitBinds('seconds', max(10), [ago(1, 5)], NOW)).toBe(false);
    expect(limitBinds('seconds', max(10), [ago(1, 5.001)], NOW)).toBe(true);
    expect(limitBinds('seconds', max(10, 10), [], NOW)).toBe(false);
    expect(limitBinds('seconds', max(10, 10.5), [], NOW)).toBe(true);
  });

  it('ml per day: used + duration × flow > max, only with a flow', () => {
    const max = (n: number, flow: number | null) => ({ ...off, max_ml_per_day: n, flow_ml_per_s: flow });
    expect(limitBinds('ml', max(20, 2), [ago(1, 5, 10)], NOW)).toBe(false);
    expect(limitBinds('ml', max(20, 2), [ago(1, 5, 10.1)], NOW)).toBe(true);
    expect(limitBinds('ml', max(20, null), [ago(1, 5, 1000)], NOW)).toBe(false);
  });

  it('null turns each off', () => {
    expect(bindingLimits(off, [ago(1, 1000, 1000), ago(2), ago(3)], NOW)).toEqual([]);
  });

  it('lists every limit that holds, in order', () => {
    const all = { ...off, max_doses_per_hour: 1, max_seconds_per_day: 1, max_ml_per_day: 1, flow_ml_per_s: 1 };
    expect(bindingLimits(all, [ago(1000, 5, 5)], NOW)).toEqual(['doses', 'seconds', 'ml']);
  });
});

describe('when a limit frees', () => {
  it('doses per hour: when enough of the oldest have left for one more', () => {
    const settings = { ...off, max_doses_per_hour: 2 };
    // Three in the hour: two must leave; the second oldest leaves 20 minutes from now.
    expect(limitFreesAt('doses', settings, [ago(600_000), ago(2400_000), ago(3000_000)], NOW)).toBe(NOW + 1200_000);
    expect(limitFreesAt('doses', settings, [ago(600_000), ago(3000_000)], NOW)).toBe(NOW + 600_000);
  });

  it('seconds per day: when enough run time has left', () => {
    const settings = { ...off, max_seconds_per_day: 20 };
    const doses = [ago(3600_000, 10), ago(7200_000, 10), ago(10_800_000, 2)];
    // 22 used + 5 > 20; the 2 s dose leaving leaves 20 + 5 > 20; the 10 s one after it leaves 10 + 5.
    expect(limitFreesAt('seconds', settings, doses, NOW)).toBe(NOW + 86_400_000 - 7200_000);
  });

  it('ml per day', () => {
    const settings = { ...off, max_ml_per_day: 30, flow_ml_per_s: 2 };
    expect(limitFreesAt('ml', settings, [ago(1000, 5, 10), ago(2000, 5, 15)], NOW)).toBe(NOW + 86_400_000 - 2000);
  });

  it('null when it does not hold, or never frees', () => {
    expect(limitFreesAt('doses', { ...off, max_doses_per_hour: 5 }, [ago(1)], NOW)).toBeNull();
    expect(limitFreesAt('seconds', { ...off, max_seconds_per_day: 4 }, [ago(1000)], NOW)).toBeNull();
    expect(
      limitFreesAt('doses', { ...off, max_doses_per_hour: 1 }, [{ activated_at: Number.NaN, duration: 5, volume_ml: null }], NOW),
    ).toBeNull();
  });

  it('a dose from the future leaves an hour after its own time', () => {
    expect(limitFreesAt('doses', { ...off, max_doses_per_hour: 1 }, [ago(-60_000)], NOW)).toBe(NOW + 3660_000);
  });

  it('any limit: the earliest of those that hold', () => {
    const settings = { ...off, max_doses_per_hour: 1, max_seconds_per_day: 5 };
    expect(anyLimitFreesAt(settings, [ago(600_000)], NOW)).toBe(NOW + 3000_000);
    expect(anyLimitFreesAt(off, [ago(600_000)], NOW)).toBeNull();
  });

  it('at the instant it frees the limit no longer binds, and a millisecond before it still does', () => {
    const settings = { ...off, max_doses_per_hour: 2, max_seconds_per_day: 12.3 };
    const doses = [ago(100_000, 2.1), ago(1800_000, 3.3), ago(3500_000, 0.7), ago(80_000_000, 1.9)];
    for (const kind of ['doses', 'seconds'] as const) {
      const at = limitFreesAt(kind, settings, doses, NOW)!;
      expect(at).toBeGreaterThan(NOW);
      expect(limitBinds(kind, settings, doses, at)).toBe(false);
      expect(limitBinds(kind, settings, doses, at - 1)).toBe(true);
    }
  });
});

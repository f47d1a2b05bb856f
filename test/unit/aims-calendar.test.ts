import { describe, expect, it } from 'vitest';
import { parseDate, phaseOfDay, phaseToApply, recipeAt, type RecipePlan } from '../../src/aims/calendar.js';
import { cycleAt, dailyAt, scheduleAt } from '../../src/aims/schedule.js';
import { clockMinutes, instantOf, isKnownZone, localTime } from '../../src/aims/zone.js';

const BERLIN = 'Europe/Berlin';
const at = (iso: string) => Date.parse(iso);

const plan: RecipePlan = {
  phases: [
    { name: 'seedling', days: 7, day: { ec: { setpoint: 0.4, band: 0.1 } } },
    {
      name: 'veg',
      days: 14,
      day: { ec: { setpoint: 1.2, band: 0.1 }, ph: { setpoint: 5.8, band: 0.2 } },
      night: { ec: { setpoint: 1.0, band: 0.1 }, ph: { setpoint: 6.0, band: 0.2 } },
    },
    { name: 'flower', days: 30, day: { ec: { setpoint: 2.2, band: 0.2 } } },
  ],
  light: { on: '18:00', hours: 16 },
};

describe('zone arithmetic', () => {
  it('knows zones and reads wall clocks', () => {
    expect(isKnownZone(BERLIN)).toBe(true);
    expect(isKnownZone('Mars/Olympus')).toBe(false);
    expect(localTime(at('2026-07-01T10:00:00Z'), BERLIN)).toMatchObject({ hour: 12, minute: 0 });
    expect(localTime(at('2026-01-01T10:00:00Z'), BERLIN)).toMatchObject({ hour: 11 });
  });
  it('an existing local time, a skipped one (moved forward) and a repeated one (the first)', () => {
    expect(instantOf(2026, 7, 1, 12, 0, BERLIN)).toBe(at('2026-07-01T10:00:00Z'));
    expect(instantOf(2026, 3, 29, 2, 30, BERLIN)).toBe(at('2026-03-29T01:30:00Z'));
    expect(instantOf(2026, 10, 25, 2, 30, BERLIN)).toBe(at('2026-10-25T00:30:00Z'));
    expect(instantOf(2026, 5, 5, 0, 0, 'UTC')).toBe(at('2026-05-05T00:00:00Z'));
  });
  it('reads HH:MM strictly', () => {
    expect(clockMinutes('06:30')).toBe(390);
    expect(clockMinutes('23:59')).toBe(1439);
    for (const bad of ['24:00', '6:30', '06:60', '0630', '', '06:30:00']) expect(clockMinutes(bad)).toBeNull();
  });
  it('reads dates strictly', () => {
    expect(parseDate('2026-02-28')).toEqual({ year: 2026, month: 2, day: 28 });
    for (const bad of ['2026-02-30', '2026-13-01', '26-01-01', '2026-1-1']) expect(parseDate(bad)).toBeNull();
  });
});

describe('the recipe calendar', () => {
  const start = { year: 2026, month: 3, day: 1 };

  it('day 1 is the start date; phases follow by days; boundaries at local midnight', () => {
    const first = recipeAt(plan, start, at('2026-03-01T12:00:00Z'), BERLIN);
    expect(first).toMatchObject({ started: true, phaseIndex: 0, day: 1, dayOfPhase: 1, held: false });
    expect(recipeAt(plan, start, instantOf(2026, 3, 7, 23, 59, BERLIN), BERLIN)).toMatchObject({ phaseIndex: 0, day: 7 });
    expect(recipeAt(plan, start, instantOf(2026, 3, 8, 0, 0, BERLIN), BERLIN)).toMatchObject({ phaseIndex: 1, day: 8, dayOfPhase: 1 });
    // Lights on 18:00 for 16 h: midnight is lit, so veg begins on its day targets.
    expect(first.nextChange).toEqual({ at: instantOf(2026, 3, 8, 0, 0, BERLIN), phaseIndex: 1, night: false });
  });

  it('before the start date: not started, the first phase comes at its midnight', () => {
    const before = recipeAt(plan, start, at('2026-02-27T12:00:00Z'), BERLIN);
    expect(before).toMatchObject({ started: false, phaseIndex: 0, night: false });
    expect(before.nextChange?.at).toBe(instantOf(2026, 3, 1, 0, 0, BERLIN));
    expect(phaseToApply(null, before)).toBeNull();
  });

  it('a start date in the past lands in the right phase at once', () => {
    const now = recipeAt(plan, { year: 2025, month: 12, day: 31 }, at('2026-01-20T12:00:00Z'), BERLIN);
    expect(now).toMatchObject({ phaseIndex: 1, day: 21, dayOfPhase: 14 });
  });

  it('the last phase is held after the end, with no next phase change', () => {
    const late = recipeAt(plan, start, at('2026-09-01T12:00:00Z'), BERLIN);
    expect(late).toMatchObject({ phaseIndex: 2, held: true, targets: plan.phases[2]!.day, nextChange: null });
    expect(phaseOfDay(plan.phases, 0)).toBe(0);
    expect(phaseOfDay(plan.phases, 51)).toBe(2);
    expect(phaseOfDay(plan.phases, 52)).toBe(2);
  });

  it('night targets between light-off and light-on, across midnight', () => {
    // Lights on 18:00 for 16 h: off 10:00 .. 18:00 local. In veg (day 8..21).
    const lit = recipeAt(plan, start, instantOf(2026, 3, 10, 2, 0, BERLIN), BERLIN);
    expect(lit).toMatchObject({ phaseIndex: 1, night: false, targets: plan.phases[1]!.day });
    expect(lit.nextChange).toEqual({ at: instantOf(2026, 3, 10, 10, 0, BERLIN), phaseIndex: 1, night: true });
    const dark = recipeAt(plan, start, instantOf(2026, 3, 10, 12, 0, BERLIN), BERLIN);
    expect(dark).toMatchObject({ night: true, targets: plan.phases[1]!.night });
    expect(dark.nextChange).toEqual({ at: instantOf(2026, 3, 10, 18, 0, BERLIN), phaseIndex: 1, night: false });
    expect(recipeAt(plan, start, instantOf(2026, 3, 10, 18, 0, BERLIN), BERLIN).night).toBe(false);
    expect(recipeAt(plan, start, instantOf(2026, 3, 10, 9, 59, BERLIN), BERLIN).night).toBe(false);
  });

  it('a phase without night targets keeps its day targets at night', () => {
    const r = recipeAt(plan, start, instantOf(2026, 3, 2, 12, 0, BERLIN), BERLIN);
    expect(r).toMatchObject({ phaseIndex: 0, night: false, targets: plan.phases[0]!.day });
  });

  it('a recipe without a light is always day', () => {
    const r = recipeAt({ phases: plan.phases }, start, instantOf(2026, 3, 10, 12, 0, BERLIN), BERLIN);
    expect(r.night).toBe(false);
  });

  it('summer time: the 23-hour day still changes phase at local midnight', () => {
    const dst = { phases: [plan.phases[0]!, plan.phases[2]!] };
    const s = { year: 2026, month: 3, day: 23 }; // phase 2 begins 2026-03-30, after the night of 29th.
    const r = recipeAt(dst, s, instantOf(2026, 3, 29, 12, 0, BERLIN), BERLIN);
    expect(r.nextChange?.at).toBe(at('2026-03-29T22:00:00Z'));
    expect(recipeAt(dst, s, at('2026-03-29T21:59:59Z'), BERLIN).phaseIndex).toBe(0);
    expect(recipeAt(dst, s, at('2026-03-29T22:00:00Z'), BERLIN).phaseIndex).toBe(1);
  });

  it('a missed change is applied once, not replayed', () => {
    const now = recipeAt(plan, start, at('2026-04-15T12:00:00Z'), BERLIN);
    expect(phaseToApply(0, now)).toBe(2);
    expect(phaseToApply(null, now)).toBe(2);
    expect(phaseToApply(2, now)).toBeNull();
  });
});

describe('timed outputs', () => {
  it('a daily window across midnight answers the rest of the window', () => {
    const s = { on: '20:00', hours: 8 };
    const late = dailyAt(s, instantOf(2026, 6, 1, 23, 0, BERLIN), BERLIN);
    expect(late).toEqual({ on: true, remaining: 5 * 3600, changesAt: instantOf(2026, 6, 2, 4, 0, BERLIN) });
    expect(dailyAt(s, instantOf(2026, 6, 2, 3, 59, BERLIN), BERLIN)).toMatchObject({ on: true, remaining: 60 });
    expect(dailyAt(s, instantOf(2026, 6, 2, 4, 0, BERLIN), BERLIN)).toEqual({
      on: false,
      remaining: 0,
      changesAt: instantOf(2026, 6, 2, 20, 0, BERLIN),
    });
    expect(dailyAt(s, instantOf(2026, 6, 2, 20, 0, BERLIN), BERLIN)).toMatchObject({ on: true, remaining: 8 * 3600 });
  });

  it('a window on the night clocks go back lasts its hours', () => {
    const s = { on: '00:00', hours: 4 };
    const r = dailyAt(s, instantOf(2026, 10, 25, 0, 0, BERLIN), BERLIN);
    expect(r.remaining).toBe(4 * 3600);
    expect(localTime(r.changesAt!, BERLIN)).toMatchObject({ hour: 3 });
  });

  it('24 hours or more is always on, re-asserted a day at a time', () => {
    expect(dailyAt({ on: '06:00', hours: 24 }, 0, 'UTC')).toEqual({ on: true, remaining: 86400, changesAt: null });
  });

  it('irrigation cycles: on for `for` every `every`, from the start of the day', () => {
    const s = { every: 3600, for: 600 };
    expect(cycleAt(s, instantOf(2026, 6, 1, 10, 5, 'UTC'), 'UTC')).toEqual({
      on: true,
      remaining: 300,
      changesAt: instantOf(2026, 6, 1, 10, 10, 'UTC'),
    });
    expect(cycleAt(s, instantOf(2026, 6, 1, 10, 10, 'UTC'), 'UTC')).toEqual({
      on: false,
      remaining: 0,
      changesAt: instantOf(2026, 6, 1, 11, 0, 'UTC'),
    });
  });

  it('cycles only between their times, across midnight, and the last cycle ends with the window', () => {
    const s = { every: 3600, for: 1800, between: ['22:00', '02:30'] as [string, string] };
    expect(cycleAt(s, instantOf(2026, 6, 1, 21, 0, 'UTC'), 'UTC')).toMatchObject({
      on: false,
      changesAt: instantOf(2026, 6, 1, 22, 0, 'UTC'),
    });
    expect(cycleAt(s, instantOf(2026, 6, 2, 1, 10, 'UTC'), 'UTC')).toMatchObject({ on: true, remaining: 20 * 60 });
    expect(cycleAt(s, instantOf(2026, 6, 2, 2, 10, 'UTC'), 'UTC')).toMatchObject({ on: true, remaining: 20 * 60 });
    expect(cycleAt({ ...s, for: 3000 }, instantOf(2026, 6, 2, 2, 10, 'UTC'), 'UTC')).toMatchObject({ on: true, remaining: 20 * 60 });
    expect(cycleAt(s, instantOf(2026, 6, 2, 2, 40, 'UTC'), 'UTC')).toMatchObject({
      on: false,
      changesAt: instantOf(2026, 6, 2, 22, 0, 'UTC'),
    });
  });

  it('bad or empty cycles stay off; for ≥ every all day is always on', () => {
    expect(cycleAt({ every: 0, for: 10 }, 0, 'UTC').on).toBe(false);
    expect(cycleAt({ every: 10, for: 0 }, 0, 'UTC').on).toBe(false);
    expect(cycleAt({ every: 10, for: 10 }, 0, 'UTC')).toMatchObject({ on: true, remaining: 86400 });
  });

  it('from_recipe follows the recipe light, off without one', () => {
    const t = instantOf(2026, 6, 1, 19, 0, 'UTC');
    expect(scheduleAt({ from_recipe: true }, t, 'UTC', { on: '18:00', hours: 2 })).toMatchObject({ on: true, remaining: 3600 });
    expect(scheduleAt({ from_recipe: true }, t, 'UTC', null)).toMatchObject({ on: false });
    expect(scheduleAt({ on: '18:00', hours: 2 }, t, 'UTC').on).toBe(true);
    expect(scheduleAt({ every: 60, for: 30 }, t, 'UTC').on).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import {
  bottleLevel,
  followStock,
  localDayStart,
  mlText,
  refillSuggestion,
  volumeChanges,
  volumeText,
  volumeTexts,
  volumeTotals,
  volumeWindow,
} from '../src/domain/volumes';

/** Local times, so the tests hold in any time zone. */
const local = (day: number, hour: number, minute = 0) => new Date(2025, 10, day, hour, minute).getTime();
const bucket = (startMs: number, doses: number, volume: number | null) => ({
  start: new Date(startMs).toISOString(),
  end: new Date(startMs + 3_600_000).toISOString(),
  doses,
  seconds: doses * 2,
  volume_ml: volume,
});

describe('localDayStart and volumeWindow', () => {
  it('starts today at local midnight and the week six days earlier', () => {
    const now = local(25, 14, 30);
    expect(localDayStart(now)).toBe(local(25, 0));
    expect(localDayStart(now, 6)).toBe(local(19, 0));
    expect(volumeWindow(now)).toEqual({ startMs: local(19, 0), todayMs: local(25, 0) });
  });

  it('keeps a day that starts at midnight on itself', () => {
    expect(localDayStart(local(25, 0))).toBe(local(25, 0));
  });
});

describe('volumeTotals', () => {
  const today = local(25, 0);
  it('sums today and the seven days, a bucket counted by the day it starts in', () => {
    const totals = volumeTotals(
      [bucket(local(19, 0), 1, 3), bucket(local(24, 23), 2, 6), bucket(today, 1, 3), bucket(local(25, 13), 3, 9)],
      today,
    );
    expect(totals).toEqual({ todayMl: 12, weekMl: 21, todayDoses: 4, weekDoses: 7, measured: true });
  });

  it('leaves out buckets before the week', () => {
    expect(volumeTotals([bucket(local(18, 23), 5, 15)], today).weekDoses).toBe(0);
  });

  it('counts doses without volume as unmeasured', () => {
    expect(volumeTotals([bucket(today, 2, null)], today)).toEqual({ todayMl: 0, weekMl: 0, todayDoses: 2, weekDoses: 2, measured: false });
  });

  it('is zero and unmeasured with no bucket', () => {
    expect(volumeTotals([], today)).toEqual({ todayMl: 0, weekMl: 0, todayDoses: 0, weekDoses: 0, measured: false });
  });
});

describe('mlText', () => {
  it('writes millilitres at the precision a grower reads', () => {
    expect(mlText(0)).toBe('0 ml');
    expect(mlText(0.25)).toBe('0.3 ml');
    expect(mlText(12.5)).toBe('12.5 ml');
    expect(mlText(99.94)).toBe('99.9 ml');
    expect(mlText(100)).toBe('100 ml');
    expect(mlText(640.4)).toBe('640 ml');
    expect(mlText(999.4)).toBe('999 ml');
    expect(mlText(1000)).toBe('1000 ml');
    expect(mlText(1250.4)).toBe('1250 ml');
    expect(mlText(-3)).toBe('0 ml');
  });
});

describe('volumeText', () => {
  const totals = { todayMl: 12.5, weekMl: 80, todayDoses: 5, weekDoses: 30, measured: true };
  it('says millilitres when volumes are known', () => {
    expect(volumeText(totals, 2.5)).toEqual({ today: '12.5 ml today', week: '80 ml in 7 days' });
  });

  it('says millilitres with a flow set even before the first dose', () => {
    expect(volumeText({ ...totals, todayMl: 0, weekMl: 0, measured: false }, 1)).toEqual({ today: '0 ml today', week: '0 ml in 7 days' });
  });

  it('says millilitres of past doses when the flow was removed since', () => {
    expect(volumeText(totals, null).today).toBe('12.5 ml today');
  });

  it('counts doses and says how to get millilitres without a flow', () => {
    const text = volumeText({ ...totals, todayDoses: 1, measured: false }, null);
    expect(text.today).toBe('1 dose today');
    expect(text.week).toBe('30 doses in 7 days');
    expect(text.hint).toMatch(/flow/);
  });
});

describe('bottleLevel', () => {
  it('is null when the stock is not tracked', () => {
    expect(bottleLevel({ stock_ml: null, stock_low_ml: 100 }, 1000)).toBeNull();
  });

  it('shows the level against the last refill', () => {
    expect(bottleLevel({ stock_ml: 640, stock_low_ml: 100 }, 1000)).toEqual({
      stockMl: 640,
      lowMl: 100,
      capacityMl: 1000,
      state: 'ok',
      text: '640 ml of 1000 ml',
      warning: null,
    });
  });

  it('says only what is left when no refill was recorded', () => {
    const level = bottleLevel({ stock_ml: 640, stock_low_ml: null }, null);
    expect(level?.capacityMl).toBeNull();
    expect(level?.text).toBe('640 ml left');
  });

  it('takes a stock above the last refill as the bottle', () => {
    expect(bottleLevel({ stock_ml: 1500, stock_low_ml: null }, 1000)?.capacityMl).toBe(1500);
  });

  it('is low at the low mark, and not just above it', () => {
    expect(bottleLevel({ stock_ml: 100, stock_low_ml: 100 }, 1000)?.state).toBe('low');
    expect(bottleLevel({ stock_ml: 100, stock_low_ml: 100 }, 1000)?.warning).toBe(
      'Running low: 100 ml left, at or under the 100 ml mark. Refill soon.',
    );
    expect(bottleLevel({ stock_ml: 100.5, stock_low_ml: 100 }, 1000)?.state).toBe('ok');
  });

  it('is empty at 0, whatever the low mark', () => {
    expect(bottleLevel({ stock_ml: 0, stock_low_ml: null }, 1000)).toMatchObject({ state: 'empty', text: '0 ml of 1000 ml' });
    expect(bottleLevel({ stock_ml: 0, stock_low_ml: 50 }, null)?.warning).toMatch(/^Empty: .*refilled/);
  });
});

describe('refillSuggestion', () => {
  it('suggests the last refill, else the stock, else nothing', () => {
    expect(refillSuggestion(1000, 200)).toBe('1000');
    expect(refillSuggestion(null, 200)).toBe('200');
    expect(refillSuggestion(0, 200)).toBe('200');
    expect(refillSuggestion(null, 0)).toBe('');
    expect(refillSuggestion(null, null)).toBe('');
  });
});

describe('volumeTexts and volumeChanges', () => {
  const actuator = { flow_ml_per_s: 2.5, max_ml_per_day: null, stock_ml: 640, stock_low_ml: 100 };

  it('writes the fields as form text, empty for null', () => {
    expect(volumeTexts(actuator)).toEqual({ flow_ml_per_s: '2.5', max_ml_per_day: '', stock_ml: '640', stock_low_ml: '100' });
    expect(volumeTexts(undefined)).toEqual({ flow_ml_per_s: '', max_ml_per_day: '', stock_ml: '', stock_low_ml: '' });
  });

  it('leaves the stock out for an existing pump, so doses since loading are kept (a refill sets it)', () => {
    const original = volumeTexts(actuator);
    expect(volumeChanges({ ...original, max_ml_per_day: '50' }, original)).toEqual({
      values: { flow_ml_per_s: 2.5, max_ml_per_day: 50, stock_low_ml: 100 },
      errors: {},
    });
  });

  it('never sends the stock of an existing pump, changed or emptied', () => {
    const original = volumeTexts(actuator);
    expect(volumeChanges({ ...original, stock_ml: '900' }, original).values).not.toHaveProperty('stock_ml');
    expect(volumeChanges({ ...original, stock_ml: '' }, original).values).not.toHaveProperty('stock_ml');
  });

  it('sends every field for a new actuator', () => {
    expect(volumeChanges(volumeTexts(undefined), undefined).values).toEqual({
      flow_ml_per_s: null,
      max_ml_per_day: null,
      stock_ml: null,
      stock_low_ml: null,
    });
  });

  it('reports text that is no number under its field', () => {
    expect(volumeChanges({ ...volumeTexts(undefined), flow_ml_per_s: 'fast' }, undefined).errors).toEqual({
      flow_ml_per_s: 'Enter a number, or leave it empty',
    });
  });
});

describe('followStock', () => {
  const given = volumeTexts({ flow_ml_per_s: 2, max_ml_per_day: null, stock_ml: 500, stock_low_ml: 100 });
  const fresh = { ...given, stock_ml: '494' };

  it('follows the stock the doses lowered while the grower left the field alone', () => {
    expect(followStock({ ...given, max_ml_per_day: '250' }, given, fresh)).toEqual({ ...given, max_ml_per_day: '250', stock_ml: '494' });
  });

  it('keeps a stock the grower is editing', () => {
    const editing = { ...given, stock_ml: '900' };
    expect(followStock(editing, given, fresh)).toBe(editing);
  });

  it('changes nothing when the stock did not move', () => {
    expect(followStock(given, given, given)).toBe(given);
  });
});

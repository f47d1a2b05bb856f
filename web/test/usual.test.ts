import { describe, expect, it } from 'vitest';
import { expectedEffectText, usualFromHeaders, usualText, type UsualDosing, windowText } from '../src/domain/usual';

const headers = (values: Record<string, string>) => new Headers(values);
const ml: UsualDosing = { amount: 12, unit: 'ml', window: 21600, days: 5, recent: 16.8, ratio: 1.4 };

describe('usualFromHeaders', () => {
  it('reads the usual dosing the service answers beside the totals', () => {
    const read = usualFromHeaders(
      headers({
        'usual-amount': '12',
        'usual-unit': 'ml',
        'usual-window': '21600',
        'usual-days': '5',
        'usual-recent': '16.8',
        'usual-ratio': '1.4',
      }),
    );
    expect(read).toEqual(ml);
  });

  it('keeps "unknown" as null until learned', () => {
    const read = usualFromHeaders(
      headers({
        'usual-amount': 'unknown',
        'usual-unit': 's',
        'usual-window': '3600',
        'usual-days': '1',
        'usual-recent': '20',
        'usual-ratio': 'unknown',
      }),
    );
    expect(read).toEqual({ amount: null, unit: 's', window: 3600, days: 1, recent: 20, ratio: null });
  });

  it('is null from a service that does not send them, or sends nonsense', () => {
    expect(usualFromHeaders(headers({}))).toBeNull();
    expect(usualFromHeaders(headers({ 'usual-unit': 'l', 'usual-window': '3600' }))).toBeNull();
    expect(usualFromHeaders(headers({ 'usual-unit': 'ml', 'usual-window': 'x' }))).toBeNull();
    expect(usualFromHeaders(headers({ 'usual-unit': 'ml', 'usual-window': '0' }))).toBeNull();
  });
});

describe('windowText', () => {
  it('says hours, minutes or seconds, whichever is whole', () => {
    expect(windowText(21600)).toBe('6 h');
    expect(windowText(5400)).toBe('90 min');
    expect(windowText(60)).toBe('1 min');
    expect(windowText(90)).toBe('90 s');
  });
});

describe('usualText', () => {
  it('says nothing while the usual amount is unknown, or without the headers', () => {
    expect(usualText({ ...ml, amount: null, ratio: null }, 2)).toBeNull();
    expect(usualText(null, 2)).toBeNull();
    expect(usualText(undefined, 2)).toBeNull();
  });

  it('puts the recent amount against the usual one, below the factor', () => {
    expect(usualText(ml, 2)).toEqual({ text: 'Usual: 12 ml per 6 h; now 1.4× (holds at 2×)', tone: 'ok' });
  });

  it('warns at the factor: one more dose holds the pump', () => {
    expect(usualText({ ...ml, ratio: 2 }, 2)).toEqual({ text: 'Usual: 12 ml per 6 h; now 2× (holds at 2×)', tone: 'warning' });
  });

  it('is critical above the factor', () => {
    expect(usualText({ ...ml, ratio: 2.5 }, 2)).toEqual({ text: 'Usual: 12 ml per 6 h; now 2.5× (holds at 2×)', tone: 'critical' });
  });

  it('names no hold when the check is off', () => {
    expect(usualText({ ...ml, ratio: 5 }, null)).toEqual({ text: 'Usual: 12 ml per 6 h; now 5×', tone: 'ok' });
    expect(usualText(ml, undefined)).toEqual({ text: 'Usual: 12 ml per 6 h; now 1.4×', tone: 'ok' });
  });

  it('counts run seconds without a flow', () => {
    const seconds: UsualDosing = { amount: 40, unit: 's', window: 3600, days: 3, recent: 20, ratio: 0.5 };
    expect(usualText(seconds, 1.5)?.text).toBe('Usual: 40 s of run per 1 h; now 0.5× (holds at 1.5×)');
  });

  it('gives the amount alone when the ratio is unknown', () => {
    expect(usualText({ ...ml, ratio: null }, 2)).toEqual({ text: 'Usual: 12 ml per 6 h', tone: 'ok' });
  });

  it('rounds to what a grower reads', () => {
    expect(usualText({ ...ml, amount: 12.345, ratio: 1.4444 }, 2)?.text).toBe('Usual: 12.3 ml per 6 h; now 1.4× (holds at 2×)');
  });
});

describe('expectedEffectText', () => {
  const answered = (response: number, duration = 5) => ({ answered: true, response, duration });

  it('is null until 3 answered doses with a move are known', () => {
    expect(expectedEffectText([], 5, 'pH')).toBeNull();
    expect(expectedEffectText([answered(0.1), answered(0.1)], 5, 'pH')).toBeNull();
    // Unanswered ones, moves not judged and runs of 0 s teach nothing.
    const unlearned = [
      answered(0.1),
      answered(0.1),
      { answered: false, response: 0.01, duration: 5 },
      { answered: true, response: null, duration: 5 },
      { answered: true, response: 0.1, duration: 0 },
      { answered: null, response: null, duration: 5 },
    ];
    expect(expectedEffectText(unlearned, 5, 'pH')).toBeNull();
  });

  it('gives the median move per second × the run, against the newest judged move', () => {
    const doses = [
      { answered: null, response: null, duration: 5 }, // not judged yet: not the last seen
      { answered: false, response: 0.01, duration: 5 },
      answered(0.1, 5), // 0.02/s
      answered(0.2, 5), // 0.04/s
      answered(0.05, 5), // 0.01/s
    ];
    expect(expectedEffectText(doses, 5, 'pH')).toEqual({ text: 'Expected per dose: 0.10 pH; last seen 0.01', expected: 0.1, last: 0.01 });
  });

  it('scales by the run the pump has now, and takes the median of an even count', () => {
    const doses = [answered(0.1, 10), answered(0.2, 10), answered(0.3, 10), answered(0.4, 10)];
    const effect = expectedEffectText(doses, 20, 'EC');
    expect(effect?.expected).toBeCloseTo(0.5);
    expect(effect?.text).toBe('Expected per dose: 0.50 EC; last seen 0.10');
  });

  it('shows a move the wrong way as negative', () => {
    const doses = [{ answered: false, response: -0.05, duration: 5 }, answered(0.1), answered(0.1), answered(0.1)];
    expect(expectedEffectText(doses, 5, 'pH')?.text).toBe('Expected per dose: 0.10 pH; last seen -0.05');
  });
});

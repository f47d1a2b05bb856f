import { describe, expect, it } from 'vitest';
import { isStale, severityOf, valueLevel } from '../src/domain/levels';

const thresholds = { threshold_critically_low: 0, threshold_low: 4, threshold_high: 7, threshold_critically_high: 10 };

describe('valueLevel', () => {
  it.each([
    [-0.1, 'critically_low'],
    [0, 'low'],
    [3.99, 'low'],
    [4, 'ok'],
    [7, 'ok'],
    [7.01, 'high'],
    [10, 'high'],
    [10.5, 'critically_high'],
  ] as const)('%s is %s', (value, level) => {
    expect(valueLevel(value, thresholds)).toBe(level);
  });

  it('is ok between equal warning thresholds and critical at once where they coincide', () => {
    const tight = { threshold_critically_low: 5, threshold_low: 5, threshold_high: 5, threshold_critically_high: 5 };
    expect(valueLevel(5, tight)).toBe('ok');
    expect(valueLevel(4.9, tight)).toBe('critically_low');
    expect(valueLevel(5.1, tight)).toBe('critically_high');
  });

  it('is the service’s rule: below the low threshold is low before anything is high, whatever the order of the thresholds', () => {
    // Thresholds out of order (stored before the service checked their order): 45 is both below
    // `low` and above `critically_high`. The service calls it low and raises a low alert; the page
    // used to call it critically high.
    const crossed = { threshold_critically_low: 0, threshold_low: 50, threshold_high: 60, threshold_critically_high: 40 };
    expect(valueLevel(45, crossed)).toBe('low');
    expect(valueLevel(-1, crossed)).toBe('critically_low');
    expect(valueLevel(61, crossed)).toBe('critically_high');
  });
});

describe('severityOf', () => {
  it('groups the levels into ok, warning and critical', () => {
    expect(severityOf('ok')).toBe('ok');
    expect(severityOf('low')).toBe('warning');
    expect(severityOf('high')).toBe('warning');
    expect(severityOf('critically_low')).toBe('critical');
    expect(severityOf('critically_high')).toBe('critical');
  });
});

describe('isStale', () => {
  const now = Date.parse('2026-11-23T12:00:00Z');
  it('is stale only past STALE_AFTER', () => {
    expect(isStale('2026-11-22T12:00:00Z', now, 86_400)).toBe(false);
    expect(isStale('2026-11-22T11:59:59Z', now, 86_400)).toBe(true);
  });

  it('is stale for a timestamp it cannot read, as the service counts a reading of unknown age', () => {
    expect(isStale('not a time', now, 86_400)).toBe(true);
  });
});

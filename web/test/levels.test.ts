import { describe, expect, it } from 'vitest';
import { isStale, levelOf, severityOf } from '../src/domain/levels';

const thresholds = { threshold_critically_low: 0, threshold_low: 4, threshold_high: 7, threshold_critically_high: 10 };

describe('levelOf', () => {
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
    expect(levelOf(value, thresholds)).toBe(level);
  });

  it('is ok between equal warning thresholds and critical at once where they coincide', () => {
    const tight = { threshold_critically_low: 5, threshold_low: 5, threshold_high: 5, threshold_critically_high: 5 };
    expect(levelOf(5, tight)).toBe('ok');
    expect(levelOf(4.9, tight)).toBe('critically_low');
    expect(levelOf(5.1, tight)).toBe('critically_high');
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
});


import { describe, expect, it } from 'vitest';
import { calibrationDue } from '../../src/domain/calibration.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 22, 12);
const none = { intervalDays: null, due: null };

describe('calibrationDue (docs/api.md §15)', () => {
  it('no interval: no due date, calibrated or not', () => {
    expect(calibrationDue(null, null, none, NOW)).toBeNull();
    expect(calibrationDue(null, NOW - DAY, { intervalDays: 30, due: NOW + 29 * DAY }, NOW)).toBeNull();
  });

  it('calibrated: the last accepted calibration plus the interval, in days (a fraction of one too)', () => {
    expect(calibrationDue(30, NOW - DAY, none, NOW)).toBe(NOW + 29 * DAY);
    expect(calibrationDue(0.5, NOW, none, NOW)).toBe(NOW + DAY / 2);
    // Already past due when the interval is shorter than the time since.
    expect(calibrationDue(7, NOW - 10 * DAY, { intervalDays: 30, due: NOW + 20 * DAY }, NOW)).toBe(NOW - 3 * DAY);
  });

  it('never calibrated: due at once when the interval is set', () => {
    expect(calibrationDue(30, null, none, NOW)).toBe(NOW);
    expect(calibrationDue(30, null, { intervalDays: null, due: null }, NOW)).toBe(NOW);
  });

  it('never calibrated, the interval kept or changed: still due from when it was set', () => {
    const set = NOW - 5 * DAY;
    expect(calibrationDue(30, null, { intervalDays: 30, due: set }, NOW)).toBe(set);
    expect(calibrationDue(60, null, { intervalDays: 30, due: set }, NOW)).toBe(set);
  });

  it('never calibrated, an interval set again after it was off: due from now', () => {
    expect(calibrationDue(30, null, { intervalDays: null, due: NOW - DAY }, NOW)).toBe(NOW);
  });
});

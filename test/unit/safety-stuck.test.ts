import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { coversStuckRun, equalRun, isStuck, isStuckRun, stuckAt } from '../../src/safety/index.js';

const NOW = 1_800_000_000_000;
/** Readings newest first from [value, age in seconds] pairs. */
const readings = (...pairs: [number, number][]) => pairs.map(([value, age]) => ({ value, timestamp: NOW - age * 1000 }));

describe('equalRun', () => {
  it('counts the equal values at the newest end and gives the time of the oldest of them', () => {
    expect(equalRun(readings([6.5, 0], [6.5, 10], [6.5, 20], [6.4, 30], [6.5, 40]))).toEqual({ count: 3, since: NOW - 20_000 });
    expect(equalRun(readings([6.5, 0], [6.4, 10]))).toEqual({ count: 1, since: NOW });
    expect(equalRun([])).toBeNull();
  });

  it('compares exactly: a live probe wavers in the last digit', () => {
    expect(equalRun(readings([6.5, 0], [6.500000000000001, 10], [6.5, 20]))!.count).toBe(1);
  });

  it('a reading without a time makes the run count as old', () => {
    expect(
      equalRun([
        { value: 1, timestamp: NOW },
        { value: 1, timestamp: Number.NaN },
        { value: 1, timestamp: NOW },
      ])!.since,
    ).toBeNaN();
  });
});

describe('isStuck', () => {
  it('needs at least 3 equal newest readings: 2 are not enough', () => {
    expect(isStuck(readings([7, 0], [7, 700]), 600, NOW)).toBe(false);
    expect(isStuck(readings([7, 0], [7, 300], [7, 700]), 600, NOW)).toBe(true);
    expect(isStuck(readings([7, 0], [7, 300], [7, 700], [8, 800]), 600, NOW)).toBe(true);
    expect(isStuck(readings([7, 0], [7, 300], [8, 700], [7, 800]), 600, NOW)).toBe(false);
  });

  it('the first of the run must be at least stuck_after old: exactly is stuck, a millisecond less is not', () => {
    const run = (firstAgeMs: number) => [NOW, NOW - 1000, NOW - firstAgeMs].map((timestamp) => ({ value: 7, timestamp }));
    expect(isStuck(run(600_000), 600, NOW)).toBe(true);
    expect(isStuck(run(599_999), 600, NOW)).toBe(false);
    expect(isStuck(run(2007), 2.007, NOW)).toBe(true);
    expect(isStuck(run(2006), 2.007, NOW)).toBe(false);
  });

  it('a stuck_after of 0 makes any 3 equal readings stuck; null turns the rule off', () => {
    expect(isStuck(readings([7, 0], [7, 0], [7, 0]), 0, NOW)).toBe(true);
    expect(isStuck(readings([7, 0], [7, 10_000], [7, 20_000]), null, NOW)).toBe(false);
    expect(isStuck([], 0, NOW)).toBe(false);
  });

  it('a run from the future is not old', () => {
    expect(isStuck(readings([7, -30], [7, -20], [7, -10]), 0, NOW)).toBe(false);
  });
});

describe('isStuckRun', () => {
  it('with the rule on, a missing or unreadable run counts as stuck', () => {
    expect(isStuckRun(null, 60, NOW)).toBe(true);
    expect(isStuckRun(undefined, 60, NOW)).toBe(true);
    expect(isStuckRun({ count: Number.NaN, since: NOW - 3600_000 }, 60, NOW)).toBe(true);
    expect(isStuckRun({ count: 3, since: Number.NaN }, 60, NOW)).toBe(true);
    expect(isStuckRun({ count: 3, since: NOW }, Number.NaN, NOW)).toBe(true);
    expect(isStuckRun(null, null, NOW)).toBe(false);
  });
});

describe('stuckAt', () => {
  it('is the instant the first of a run of 3 becomes stuck_after old', () => {
    expect(stuckAt({ count: 3, since: NOW - 100_000 }, 600, NOW)).toBe(NOW + 500_000);
    expect(stuckAt({ count: 3, since: NOW - 2000 }, 2.007, NOW)).toBe(NOW + 7);
  });

  it('is null when already stuck, too few readings, or the rule is off', () => {
    expect(stuckAt({ count: 3, since: NOW - 600_000 }, 600, NOW)).toBeNull();
    expect(stuckAt({ count: 2, since: NOW - 100_000 }, 600, NOW)).toBeNull();
    expect(stuckAt({ count: 3, since: NOW - 100_000 }, null, NOW)).toBeNull();
    expect(stuckAt(null, 600, NOW)).toBeNull();
  });
});

describe('how many readings a caller must supply', () => {
  it('coversStuckRun says when a newest-first list is enough', () => {
    expect(coversStuckRun(readings([7, 0], [7, 10]), 600, NOW)).toBe(false);
    expect(coversStuckRun(readings([7, 0], [7, 10]), 600, NOW, true)).toBe(true);
    expect(coversStuckRun(readings([7, 0], [7, 10], [7, 20]), 600, NOW)).toBe(false);
    expect(coversStuckRun(readings([7, 0], [7, 10], [8, 20]), 600, NOW)).toBe(true);
    expect(coversStuckRun(readings([7, 0], [7, 10], [7, 600]), 600, NOW)).toBe(true);
  });

  it('any covering prefix answers as the whole history does', () => {
    const history = fc
      .array(fc.record({ value: fc.constantFrom(1, 2), gap: fc.integer({ min: 0, max: 400 }) }), { minLength: 1, maxLength: 20 })
      .map((steps) => {
        let age = 0;
        return steps.map(({ value, gap }) => ({ value, timestamp: NOW - (age += gap) * 1000 }));
      });
    fc.assert(
      fc.property(history, fc.integer({ min: 0, max: 2000 }), (all, stuckAfter) => {
        const whole = isStuck(all, stuckAfter, NOW);
        for (let n = 1; n <= all.length; n++) {
          const prefix = all.slice(0, n);
          if (coversStuckRun(prefix, stuckAfter, NOW, n === all.length)) expect(isStuck(prefix, stuckAfter, NOW)).toBe(whole);
        }
      }),
      { numRuns: 500 },
    );
  });
});

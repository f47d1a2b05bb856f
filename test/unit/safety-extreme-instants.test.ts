import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundedDelay, LONGEST_DELAY_MS } from '../../src/core/timers.js';
import { firstMillisecondAfter, elapsesAt } from '../../src/safety/instants.js';
import {
  anyLimitFreesAt,
  controllerOfflineAt,
  decide,
  nextDecisionChange,
  staleAt,
  stuckAt,
  type DecisionInput,
} from '../../src/safety/index.js';
import { inputWith, NOW, waterLevel } from '../helpers/safety-input.js';

/**
 * No setting, stored value or clock may make an instant computation loop: each of them answers
 * after a few steps whatever it is given (huge, NaN, infinite, negative), and what it answers is
 * either null or an instant where its rule really changes.
 */

/** Numbers a store or a clock may hand over: ordinary ones, the huge ones, and the non-finite ones. */
const extreme = fc.oneof(
  fc.constantFrom(1e13, 1e15, 2 ** 53, 2 ** 53 + 2, 1e16, 1e20, 1e100, 1e300, Number.MAX_VALUE),
  fc.constantFrom(NaN, Infinity, -Infinity, -1e300, -1, 0, 0.5),
  fc.double({ noNaN: false }),
  fc.integer({ min: 0, max: 1e9 }),
);
const instant = fc.oneof(fc.constant(NOW), extreme, fc.integer({ min: 0, max: 4e12 }));

/** A monotone predicate that counts its calls and refuses to be asked forever. */
function counted(holds: (t: number) => boolean) {
  let calls = 0;
  const wrapped = (t: number) => {
    if (++calls > 100) throw new Error(`asked ${calls} times: the search does not end`);
    return holds(t);
  };
  return { wrapped, calls: () => calls };
}

describe('firstMillisecondAfter with extreme inputs', () => {
  it('asks its predicate a bounded number of times, whatever the instants', () => {
    fc.assert(
      fc.property(instant, extreme, instant, (after, seconds, since) => {
        const holds = counted((t) => (t - since) / 1000 >= seconds);
        const answer = firstMillisecondAfter(after, since + seconds * 1000, holds.wrapped);
        expect(holds.calls()).toBeLessThanOrEqual(40);
        if (answer !== null) {
          expect(Number.isSafeInteger(answer)).toBe(true);
          expect(answer > after).toBe(true);
          expect(holds.wrapped(answer)).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('the cases that spun: a huge estimate, an after of -Infinity', () => {
    for (const seconds of [1e13, 1e15, 1e100, 1e300]) {
      const holds = counted((t) => (t - NOW) / 1000 >= seconds);
      expect(firstMillisecondAfter(NOW, NOW + seconds * 1000, holds.wrapped)).toBeNull();
      const fromNowhere = counted((t) => (t - NOW) / 1000 >= seconds);
      expect(firstMillisecondAfter(Number.NEGATIVE_INFINITY, NOW + seconds * 1000, fromNowhere.wrapped)).toBeNull();
    }
  });

  it('still exact for ordinary instants', () => {
    expect(elapsesAt(NOW, 2.007, NOW)).toBe(NOW + 2007);
    expect(elapsesAt(NOW, 31_536_000, NOW)).toBe(NOW + 31_536_000_000);
    expect(firstMillisecondAfter(Number.NEGATIVE_INFINITY, NOW + 5, (t) => t >= NOW + 5)).toBe(NOW + 5);
  });
});

describe('every changesAt-style function with extreme inputs', () => {
  it('elapsesAt, staleAt, stuckAt and controllerOfflineAt answer', () => {
    fc.assert(
      fc.property(instant, extreme, instant, (since, seconds, now) => {
        for (const answer of [
          elapsesAt(since, seconds, now),
          staleAt({ stale_after: seconds }, since, now, 86_400_000),
          staleAt({ stale_after: null }, since, now, seconds),
          stuckAt({ count: 3, since }, seconds, now),
          controllerOfflineAt(since, now, seconds),
          controllerOfflineAt(null, since, seconds),
        ]) {
          if (answer !== null) expect(Number.isFinite(answer)).toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('the limits free at an instant or never', () => {
    fc.assert(
      fc.property(instant, extreme, extreme, (at, duration, max) => {
        const settings = {
          activation_duration: duration,
          max_doses_per_hour: 1,
          max_seconds_per_day: max,
          max_ml_per_day: max,
          flow_ml_per_s: duration,
        };
        const answer = anyLimitFreesAt(settings, [{ activated_at: at, duration, volume_ml: duration }], NOW);
        if (answer !== null) expect(Number.isFinite(answer)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  /** Every time-driven setting and stored instant of the decision set to one extreme value. */
  const extremeInput = (value: number, now: number) =>
    inputWith((i: DecisionInput) => {
      i.now = now;
      i.actuator.activation_period = value;
      i.actuator.activation_duration = value;
      i.actuator.last_activated = value;
      i.actuator.max_seconds_per_day = value;
      i.actuator.max_doses_per_hour = value;
      i.actuator.max_ml_per_day = value;
      i.actuator.flow_ml_per_s = value;
      i.actuator.stock_ml = value;
      i.sensor.settings.stale_after = value;
      i.sensor.settings.stuck_after = value;
      i.sensor.run = { count: 3, since: value };
      i.sensor.newest = { value: 7, timestamp: value, received_at: value };
      i.pausedUntil = value;
      i.staleAfterDefaultMs = value;
      i.actuator.interlocks = [{ sensor_id: 5, block_below: 20, block_above: null }];
      const interlock = waterLevel(50);
      interlock.settings.stuck_after = value;
      interlock.settings.stale_after = value;
      interlock.newest = { value: 50, timestamp: value, received_at: value };
      interlock.run = { count: 3, since: value };
      i.interlockSensors = [interlock];
      i.doses = [{ activated_at: value, duration: value, volume_ml: value }];
    });

  it('the decision and its next change answer on any input', () => {
    fc.assert(
      fc.property(extreme, instant, (value, now) => {
        const input = extremeInput(value, now);
        const next = nextDecisionChange(input);
        if (next !== null) expect(Number.isFinite(next)).toBe(true);
        decide(input);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('an alarm set from a broken instant', () => {
  it('waits the longest rather than ringing at once (a NaN, an infinite or a far instant)', () => {
    expect(boundedDelay(NaN)).toBe(LONGEST_DELAY_MS);
    expect(boundedDelay(Infinity)).toBe(LONGEST_DELAY_MS);
    expect(boundedDelay(1e300)).toBe(LONGEST_DELAY_MS);
    expect(boundedDelay(-Infinity)).toBe(0);
    expect(boundedDelay(-5)).toBe(0);
    expect(boundedDelay(1500)).toBe(1500);
  });
});

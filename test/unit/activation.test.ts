import { describe, expect, it } from 'vitest';
import { activationFor, conditionHolds, STATUS, type ActuatorSettings } from '../../src/domain/activation.js';

const NOW = 1_800_000_000_000;
const STALE = 24 * 3600_000;
const pump: ActuatorSettings = {
  enabled: true,
  condition_value: 6,
  activation_condition: 'high',
  activation_period: 300,
  activation_duration: 5,
  last_activated: NOW - 3600_000,
};
const reading = (value: number, ageMs = 1000) => ({ value, timestamp: NOW - ageMs });

describe('activationFor', () => {
  it('activates when every rule passes and the condition holds, with duration and period', () => {
    expect(activationFor(pump, reading(7), NOW, STALE)).toEqual({ activate: true, status: STATUS.ok, duration: 5, period: 300 });
  });

  it('says no, with the rule, in order: disabled first', () => {
    expect(activationFor({ ...pump, enabled: false }, undefined, NOW, STALE)).toMatchObject({ activate: false, status: STATUS.disabled });
    expect(activationFor({ ...pump, enabled: false, activation_duration: 0 }, reading(7), NOW, STALE).status).toBe(STATUS.disabled);
  });

  it('says no without a measurement', () => {
    expect(activationFor(pump, undefined, NOW, STALE)).toMatchObject({ activate: false, status: STATUS.noMeasurement });
  });

  it('says no for a stale measurement; exactly at the limit is still fresh', () => {
    expect(activationFor(pump, reading(7, STALE + 1), NOW, STALE)).toMatchObject({ activate: false, status: STATUS.stale });
    expect(activationFor(pump, reading(7, STALE), NOW, STALE)).toMatchObject({ activate: true, status: STATUS.ok });
  });

  it('stale comes before the period', () => {
    expect(activationFor({ ...pump, last_activated: NOW }, reading(7, STALE + 1), NOW, STALE).status).toBe(STATUS.stale);
  });

  it('says no until the period has elapsed; exactly elapsed allows activation', () => {
    expect(activationFor({ ...pump, last_activated: NOW - 299_999 }, reading(7), NOW, STALE)).toMatchObject({
      activate: false,
      status: STATUS.waiting,
    });
    expect(activationFor({ ...pump, last_activated: NOW - 300_000 }, reading(7), NOW, STALE)).toMatchObject({
      activate: true,
      status: STATUS.ok,
    });
    expect(activationFor({ ...pump, activation_period: 0, last_activated: NOW }, reading(7), NOW, STALE).activate).toBe(true);
  });

  it('says no for a zero duration, after the period rule', () => {
    expect(activationFor({ ...pump, activation_duration: 0 }, reading(7), NOW, STALE)).toMatchObject({
      activate: false,
      status: STATUS.zeroDuration,
    });
    expect(activationFor({ ...pump, activation_duration: 0, last_activated: NOW }, reading(7), NOW, STALE).status).toBe(STATUS.waiting);
  });

  it('reports "OK" with activate false when the condition does not hold', () => {
    expect(activationFor(pump, reading(5), NOW, STALE)).toEqual({ activate: false, status: STATUS.ok, duration: 5, period: 300 });
  });

  it('a value equal to the condition value activates only "always"', () => {
    for (const activation_condition of ['high', 'low', 'low_or_high'] as const) {
      expect(activationFor({ ...pump, activation_condition }, reading(6), NOW, STALE)).toMatchObject({
        activate: false,
        status: STATUS.ok,
      });
    }
    expect(activationFor({ ...pump, activation_condition: 'always' }, reading(6), NOW, STALE)).toMatchObject({
      activate: true,
      status: STATUS.ok,
    });
  });

  it('"always" still obeys every rule before the condition', () => {
    const always = { ...pump, activation_condition: 'always' as const };
    expect(activationFor({ ...always, enabled: false }, reading(1), NOW, STALE).status).toBe(STATUS.disabled);
    expect(activationFor(always, undefined, NOW, STALE).status).toBe(STATUS.noMeasurement);
    expect(activationFor(always, reading(1, STALE + 1), NOW, STALE).status).toBe(STATUS.stale);
    expect(activationFor({ ...always, last_activated: NOW - 1000 }, reading(1), NOW, STALE).status).toBe(STATUS.waiting);
    expect(activationFor({ ...always, activation_duration: 0 }, reading(1), NOW, STALE).status).toBe(STATUS.zeroDuration);
    for (const decision of [
      activationFor({ ...always, enabled: false }, reading(1), NOW, STALE),
      activationFor(always, reading(1, STALE + 1), NOW, STALE),
      activationFor({ ...always, activation_duration: 0 }, reading(1), NOW, STALE),
    ]) {
      expect(decision.activate).toBe(false);
    }
  });

  it('no measurement comes before the period and the duration', () => {
    expect(activationFor({ ...pump, last_activated: NOW, activation_duration: 0 }, undefined, NOW, STALE).status).toBe(
      STATUS.noMeasurement,
    );
  });

  it('puts the exact period boundary where the period says, also for decimal periods', () => {
    // 2.007 * 1000 is 2007.0000000000002 in floating point; the boundary must still be 2007 ms.
    for (const period of [2.007, 2.011, 1.001, 1.1, 0.001, 4.35, 86_400.5]) {
      const ms = Math.round(period * 1000);
      const at = (elapsed: number) =>
        activationFor({ ...pump, activation_period: period, last_activated: NOW - elapsed }, reading(7), NOW, STALE);
      expect(at(ms - 1).status, `period ${period}, 1 ms early`).toBe(STATUS.waiting);
      expect(at(ms).status, `period ${period}, exactly elapsed`).toBe(STATUS.ok);
      expect(at(ms).activate).toBe(true);
    }
  });

  it('a stale limit of 0 accepts only a reading taken at this very millisecond', () => {
    expect(activationFor(pump, reading(7, 0), NOW, 0).status).toBe(STATUS.ok);
    expect(activationFor(pump, reading(7, 1), NOW, 0).status).toBe(STATUS.stale);
  });

  it('a reading from a little in the future counts as fresh', () => {
    expect(activationFor(pump, { value: 7, timestamp: NOW + 60_000 }, NOW, STALE)).toMatchObject({ activate: true, status: STATUS.ok });
  });

  it('a last_activated in the future (the clock was set back) keeps the pump waiting', () => {
    expect(activationFor({ ...pump, last_activated: NOW + 3600_000 }, reading(7), NOW, STALE)).toMatchObject({
      activate: false,
      status: STATUS.waiting,
    });
    expect(activationFor({ ...pump, activation_period: 0, last_activated: NOW + 1 }, reading(7), NOW, STALE).status).toBe(STATUS.waiting);
  });

  it('says no when a time or a number cannot be compared (NaN), never yes', () => {
    expect(activationFor(pump, { value: 7, timestamp: Number.NaN }, NOW, STALE)).toMatchObject({ activate: false, status: STATUS.stale });
    expect(activationFor(pump, reading(7), NOW, Number.NaN)).toMatchObject({ activate: false, status: STATUS.stale });
    expect(activationFor({ ...pump, last_activated: Number.NaN }, reading(7), NOW, STALE)).toMatchObject({
      activate: false,
      status: STATUS.waiting,
    });
    expect(activationFor({ ...pump, activation_period: Number.NaN }, reading(7), NOW, STALE)).toMatchObject({
      activate: false,
      status: STATUS.waiting,
    });
    expect(activationFor({ ...pump, activation_duration: Number.NaN }, reading(7), NOW, STALE)).toMatchObject({
      activate: false,
      status: STATUS.zeroDuration,
    });
    for (const activation_condition of ['high', 'low', 'low_or_high'] as const) {
      expect(activationFor({ ...pump, activation_condition }, reading(Number.NaN), NOW, STALE).activate).toBe(false);
      expect(activationFor({ ...pump, activation_condition, condition_value: Number.NaN }, reading(7), NOW, STALE).activate).toBe(false);
    }
  });

  it('an enabled flag that is not exactly true counts as disabled', () => {
    expect(activationFor({ ...pump, enabled: 1 as unknown as boolean }, reading(7), NOW, STALE).status).toBe(STATUS.disabled);
  });

  it('never activates a condition it does not know', () => {
    const unknown = { ...pump, activation_condition: 'sometimes' as unknown as ActuatorSettings['activation_condition'] };
    expect(activationFor(unknown, reading(7), NOW, STALE)).toMatchObject({ activate: false, status: STATUS.ok });
  });

  it('returns duration and period unchanged with every status', () => {
    const cases = [
      activationFor({ ...pump, enabled: false }, reading(7), NOW, STALE),
      activationFor(pump, undefined, NOW, STALE),
      activationFor(pump, reading(7, STALE + 1), NOW, STALE),
      activationFor({ ...pump, last_activated: NOW }, reading(7), NOW, STALE),
      activationFor(pump, reading(7), NOW, STALE),
    ];
    expect(new Set(cases.map((c) => c.status)).size).toBe(5);
    for (const c of cases) expect(c).toMatchObject({ duration: 5, period: 300 });
    expect(activationFor({ ...pump, activation_duration: 0, activation_period: 0.5 }, reading(7), NOW, STALE)).toEqual({
      activate: false,
      status: STATUS.zeroDuration,
      duration: 0,
      period: 0.5,
    });
  });
});

describe('conditionHolds', () => {
  it.each([
    ['high', 7, true],
    ['high', 6, false],
    ['high', 5, false],
    ['low', 5, true],
    ['low', 6, false],
    ['low', 7, false],
    ['low_or_high', 5, true],
    ['low_or_high', 7, true],
    ['low_or_high', 6, false],
    ['always', 6, true],
    ['always', -100, true],
    ['high', 6.000000000000001, true],
    ['low', 5.999999999999999, true],
  ] as const)('%s with value %d against 6 → %s', (condition, value, expected) => {
    expect(conditionHolds(condition, value, 6)).toBe(expected);
  });
});

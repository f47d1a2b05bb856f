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
    expect(activationFor({ ...pump, last_activated: NOW - 299_999 }, reading(7), NOW, STALE)).toMatchObject({ activate: false, status: STATUS.waiting });
    expect(activationFor({ ...pump, last_activated: NOW - 300_000 }, reading(7), NOW, STALE)).toMatchObject({ activate: true, status: STATUS.ok });
    expect(activationFor({ ...pump, activation_period: 0, last_activated: NOW }, reading(7), NOW, STALE).activate).toBe(true);
  });

  it('says no for a zero duration, after the period rule', () => {
    expect(activationFor({ ...pump, activation_duration: 0 }, reading(7), NOW, STALE)).toMatchObject({ activate: false, status: STATUS.zeroDuration });
    expect(activationFor({ ...pump, activation_duration: 0, last_activated: NOW }, reading(7), NOW, STALE).status).toBe(STATUS.waiting);
  });

  it('reports "OK" with activate false when the condition does not hold', () => {
    expect(activationFor(pump, reading(5), NOW, STALE)).toEqual({ activate: false, status: STATUS.ok, duration: 5, period: 300 });
  });
});

describe('conditionHolds', () => {
  it.each([
    ['high', 7, true], ['high', 6, false], ['high', 5, false],
    ['low', 5, true], ['low', 6, false], ['low', 7, false],
    ['low_or_high', 5, true], ['low_or_high', 7, true], ['low_or_high', 6, false],
    ['always', 6, true], ['always', -100, true],
  ] as const)('%s with value %d against 6 → %s', (condition, value, expected) => {
    expect(conditionHolds(condition, value, 6)).toBe(expected);
  });
});

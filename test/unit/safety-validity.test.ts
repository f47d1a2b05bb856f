import { describe, expect, it } from 'vitest';
import { SENSOR_TYPES } from '../../src/domain/sensor.js';
import { describeRange, isValid, validRange } from '../../src/safety/index.js';

describe('validRange', () => {
  it.each([
    ['ph', 0, 14],
    ['humidity', 0, 100],
    ['boolean_water_level', 0, 1],
    ['ec', 0, null],
    ['water_level', 0, null],
    ['oxygen', 0, null],
    ['temperature', null, null],
  ] as const)('%s defaults to %s..%s', (type, min, max) => {
    expect(validRange(type, null, null)).toEqual({ min, max });
  });

  it('has a default for every sensor type', () => {
    for (const type of SENSOR_TYPES) expect(validRange(type, null, null)).toHaveProperty('min');
  });

  it('takes each bound that is set and the default for the other', () => {
    expect(validRange('ph', 4, null)).toEqual({ min: 4, max: 14 });
    expect(validRange('ph', null, 9)).toEqual({ min: 0, max: 9 });
    expect(validRange('temperature', -10, 60)).toEqual({ min: -10, max: 60 });
    expect(validRange('ec', -1, 5)).toEqual({ min: -1, max: 5 });
    expect(validRange('ph', 0, 0)).toEqual({ min: 0, max: 0 });
  });

  it('leaves a sensor type it does not know unbounded', () => {
    expect(validRange('radiation' as never, null, null)).toEqual({ min: null, max: null });
    expect(validRange('toString' as never, null, null)).toEqual({ min: null, max: null });
  });
});

describe('isValid', () => {
  const ph = validRange('ph', null, null);
  it('includes both bounds', () => {
    expect(isValid(0, ph)).toBe(true);
    expect(isValid(14, ph)).toBe(true);
    expect(isValid(7, ph)).toBe(true);
    expect(isValid(-Number.MIN_VALUE, ph)).toBe(false);
    expect(isValid(14.000000000000002, ph)).toBe(false);
  });

  it('an unbounded side accepts anything finite', () => {
    const ec = validRange('ec', null, null);
    expect(isValid(1e300, ec)).toBe(true);
    expect(isValid(-0.001, ec)).toBe(false);
    const temperature = validRange('temperature', null, null);
    expect(isValid(-273, temperature)).toBe(true);
    expect(isValid(1e12, temperature)).toBe(true);
  });

  it('never accepts NaN, infinities, or anything against a NaN bound', () => {
    const any = { min: null, max: null };
    expect(isValid(Number.NaN, any)).toBe(false);
    expect(isValid(Number.POSITIVE_INFINITY, any)).toBe(false);
    expect(isValid(Number.NEGATIVE_INFINITY, any)).toBe(false);
    expect(isValid(5, { min: Number.NaN, max: null })).toBe(false);
    expect(isValid(5, { min: null, max: Number.NaN })).toBe(false);
  });

  it('a boolean level reads only 0..1', () => {
    const level = validRange('boolean_water_level', null, null);
    expect([0, 1, 0.5, 2, -1].map((v) => isValid(v, level))).toEqual([true, true, true, false, false]);
  });
});

describe('describeRange', () => {
  it('writes the range as a status shows it', () => {
    expect(describeRange({ min: 0, max: 14 })).toBe('0..14');
    expect(describeRange({ min: 0, max: null })).toBe('≥ 0');
    expect(describeRange({ min: null, max: 10 })).toBe('≤ 10');
    expect(describeRange({ min: null, max: null })).toBe('any value');
  });
});

import { describe, expect, it } from 'vitest';
import { decide, doseVolume, isStockLow, stockAfterDose, toMicrolitre, type DecisionInput } from '../../src/safety/index.js';
import { inputWith } from '../helpers/safety-input.js';

/** Volumes and the bottle (docs/api.md §15): what a dose takes, what is left, when it is low. */
describe('doseVolume: run time × flow, at the moment of the dose', () => {
  it('multiplies the duration by the flow', () => {
    expect(doseVolume(5, 2)).toBe(10);
    expect(doseVolume(0, 2)).toBe(0);
  });

  it('is null without a flow: the volume is unknown', () => {
    expect(doseVolume(5, null)).toBeNull();
  });

  it('is kept to the microlitre, without binary noise', () => {
    expect(3 * 0.1).not.toBe(0.3);
    expect(doseVolume(3, 0.1)).toBe(0.3);
    expect(doseVolume(1, 0.0000004)).toBe(0);
    expect(doseVolume(1, 0.0000005)).toBe(0.000001);
  });
});

describe('stockAfterDose: the stock less the volume, never below 0', () => {
  it('subtracts the volume', () => {
    expect(stockAfterDose(100, 10)).toBe(90);
    expect(stockAfterDose(100, 0)).toBe(100);
    expect(stockAfterDose(100, 0.3)).toBe(99.7);
  });

  it('stops at 0: exactly the last drop, or less left than a dose', () => {
    expect(stockAfterDose(10, 10)).toBe(0);
    expect(stockAfterDose(5, 10)).toBe(0);
    expect(stockAfterDose(0, 10)).toBe(0);
    expect(Object.is(stockAfterDose(10, 10), 0)).toBe(true);
  });

  it('leaves a stock that is not tracked untracked, and takes nothing for a volume unknown', () => {
    expect(stockAfterDose(null, 10)).toBeNull();
    expect(stockAfterDose(null, null)).toBeNull();
    expect(stockAfterDose(40, null)).toBe(40);
  });

  it('empties the bottle on a NaN stock or volume: unknown, the pump waits', () => {
    expect(stockAfterDose(Number.NaN, 1)).toBe(0);
    expect(stockAfterDose(40, Number.NaN)).toBe(0);
  });

  it('keeps many small doses exact to the microlitre', () => {
    let stock: number | null = 1;
    for (let n = 0; n < 10; n++) stock = stockAfterDose(stock, doseVolume(1, 0.1));
    expect(stock).toBe(0);
    expect(toMicrolitre(0.1 + 0.2)).toBe(0.3);
  });
});

describe('isStockLow: at or under the mark', () => {
  it('is low at the mark and under it, not above', () => {
    expect(isStockLow(50, 50)).toBe(true);
    expect(isStockLow(49.999, 50)).toBe(true);
    expect(isStockLow(0, 0)).toBe(true);
    expect(isStockLow(50.001, 50)).toBe(false);
    expect(isStockLow(1, 0)).toBe(false);
  });

  it('is never low without a stock or without a mark', () => {
    expect(isStockLow(null, 50)).toBe(false);
    expect(isStockLow(10, null)).toBe(false);
    expect(isStockLow(null, null)).toBe(false);
  });

  it('a NaN stock counts as low', () => {
    expect(isStockLow(Number.NaN, 10)).toBe(true);
  });
});

describe('the bottle in the decision', () => {
  const reasonWith = (stock: number | null) => decide(inputWith((i: DecisionInput) => (i.actuator.stock_ml = stock))).reason;

  it('answers empty once the last dose took the stock to 0, and runs while anything is left', () => {
    expect(reasonWith(stockAfterDose(10, doseVolume(5, 2)))).toBe('empty');
    expect(reasonWith(stockAfterDose(10.000001, doseVolume(5, 2)))).toBe('ok');
  });
});

import { describe, expect, it } from 'vitest';
import { conditionHolds } from '../../src/domain/activation.js';

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

import { describe, expect, it } from 'vitest';
import { grouped } from '../../src/domain/grouped.js';

describe('grouped', () => {
  it.each([
    [0, '0'],
    [7, '7'],
    [999, '999'],
    [1000, '1,000'],
    [100000, '100,000'],
    [1234567, '1,234,567'],
    [-1234567, '-1,234,567'],
    [12.7, '12'],
  ])('%d → %s', (n, text) => {
    expect(grouped(n)).toBe(text);
  });

  it('writes integers as English toLocaleString does', () => {
    for (const n of [1, 12, 123, 1234, 12345, 123456, 1234567890, Number.MAX_SAFE_INTEGER]) {
      expect(grouped(n)).toBe(n.toLocaleString('en-US'));
    }
  });
});

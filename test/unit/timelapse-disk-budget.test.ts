import { describe, expect, it } from 'vitest';
import { diskBudget, formatBytes } from '../../src/timelapse/disk-budget.js';

describe('diskBudget', () => {
  it('adds frames, replaces rewritten files, and forgets a deleted timelapse whole', () => {
    const budget = diskBudget(10_000);
    budget.setFile('a', 'metadata.json', 400);
    budget.addFrame('a', 3000);
    budget.addFrame('a', 3000);
    budget.setFile('a', 'metadata.json', 450);
    expect(budget.usedBytes).toBe(6450);
    budget.setFile('b', 'metadata.json', 400);
    budget.addFrame('b', 1000);
    budget.setFile('a', 'timelapse.mp4', 2000);
    expect(budget.usedBytes).toBe(9850);
    expect(budget.full()).toBe(false);
    budget.addFrame('b', 150);
    expect(budget.full()).toBe(true);
    budget.forget('a');
    expect(budget.usedBytes).toBe(1550);
    expect(budget.full()).toBe(false);
    budget.forget('a');
    expect(budget.usedBytes).toBe(1550);
  });

  it('is never full without a bound (0)', () => {
    const budget = diskBudget(0);
    budget.addFrame('a', Number.MAX_SAFE_INTEGER);
    expect(budget.full()).toBe(false);
  });
});

describe('formatBytes', () => {
  it.each([
    [0, '0 bytes'],
    [1023, '1023 bytes'],
    [1024, '1 KiB'],
    [1536, '1.5 KiB'],
    [2 * 1024 ** 3, '2 GiB'],
    [5 * 1024 ** 4, '5 TiB'],
  ])('%i → %s', (bytes, text) => expect(formatBytes(bytes)).toBe(text));
});

import { describe, expect, it } from 'vitest';
import { keptStamp, MAX_FUTURE_MS } from '../../src/measurements/stamps.js';

const NOW = 1_800_000_000_000;

describe('the instant a reading is kept at', () => {
  it('is the receive time without a stamp', () => {
    expect(keptStamp(undefined, NOW)).toBe(NOW);
  });
  it('is the stamp when it is not ahead of the receive time', () => {
    expect(keptStamp(NOW - 60_000, NOW)).toBe(NOW - 60_000);
    expect(keptStamp(NOW, NOW)).toBe(NOW);
  });
  it('is the receive time for a stamp ahead by up to MAX_FUTURE_MS, the bound included', () => {
    expect(keptStamp(NOW + 1, NOW)).toBe(NOW);
    expect(keptStamp(NOW + 290_000, NOW)).toBe(NOW);
    expect(keptStamp(NOW + MAX_FUTURE_MS, NOW)).toBe(NOW);
  });
  it('refuses a stamp further ahead', () => {
    expect(keptStamp(NOW + MAX_FUTURE_MS + 1, NOW)).toBe('too_far_ahead');
  });
});

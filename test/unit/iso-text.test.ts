import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoOf } from '../../src/domain/date-time.js';

describe('isoOf', () => {
  it('writes what Date#toISOString writes, for any instant, in any order', () => {
    const instant = fc.oneof(
      fc.integer({ min: -8.64e15, max: 8.64e15 }),
      fc.integer({ min: -62_167_219_200_001, max: -62_167_219_199_999 }),
      fc.integer({ min: 253_402_300_799_999, max: 253_402_300_800_001 }),
      fc.integer({ min: Date.UTC(2025, 0, 1), max: Date.UTC(2027, 0, 1) }),
    );
    fc.assert(
      fc.property(fc.array(instant, { minLength: 1, maxLength: 50 }), (instants) => {
        for (const ms of instants) expect(isoOf(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 500 },
    );
  });

  it('writes runs of instants within the same minutes, either side of 1970 and of midnight, as Date does', () => {
    const around = fc.constantFrom(0, Date.UTC(2026, 10, 22), Date.UTC(2026, 10, 22, 23, 59), -62_167_219_200_000 + 120_000);
    fc.assert(
      fc.property(around, fc.array(fc.integer({ min: -180_000, max: 180_000 }), { minLength: 1, maxLength: 60 }), (base, offsets) => {
        for (const offset of [...offsets].sort((a, b) => a - b)) expect(isoOf(base + offset)).toBe(new Date(base + offset).toISOString());
      }),
      { numRuns: 300 },
    );
  });

  it('writes a year of hourly instants, and the same instant twice, as Date does', () => {
    const start = Date.UTC(2025, 10, 22, 12);
    for (let hour = 0; hour < 8760; hour++) {
      const ms = start + hour * 3_600_000;
      expect(isoOf(ms)).toBe(new Date(ms).toISOString());
      expect(isoOf(ms)).toBe(new Date(ms).toISOString());
    }
    expect(isoOf(-1)).toBe('1969-12-31T23:59:59.999Z');
    expect(isoOf(0)).toBe('1970-01-01T00:00:00.000Z');
  });
});

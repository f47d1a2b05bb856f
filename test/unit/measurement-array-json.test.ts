import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { measurementArrayJson, measurementJson } from '../../src/core/json-text.js';

const row = fc.record({
  measurement_id: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
  sensor_id: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
  value: fc.double({ noNaN: true, noDefaultInfinity: true }),
  timestamp: fc.integer({ min: Date.UTC(1, 0, 1), max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) }),
});

describe('measurementArrayJson', () => {
  it('is the JSON of the rows as measurements, in their order, as UTF-8 bytes', () => {
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 30 }), (rows) => {
        const bytes = measurementArrayJson(rows);
        expect(bytes.toString('utf8')).toBe(`[${rows.map(measurementJson).join(',')}]`);
        const parsed = JSON.parse(bytes.toString('utf8')) as unknown;
        expect(parsed).toEqual(
          rows.map((m) => ({ ...m, value: m.value === 0 ? 0 : m.value, timestamp: new Date(m.timestamp).toISOString() })),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('writes one row and many rows as arrays', () => {
    const one = { measurement_id: 7, sensor_id: 2, value: -0.5, timestamp: Date.UTC(2026, 10, 25, 12) };
    expect(measurementArrayJson([one]).toString()).toBe(
      '[{"measurement_id":7,"sensor_id":2,"value":-0.5,"timestamp":"2026-11-25T12:00:00.000Z"}]',
    );
    const many = Array.from({ length: 10_000 }, (_, i) => ({ ...one, measurement_id: i + 1 }));
    const parsed = JSON.parse(measurementArrayJson(many).toString()) as { measurement_id: number }[];
    expect(parsed.map((m) => m.measurement_id)).toEqual(many.map((m) => m.measurement_id));
  });
});

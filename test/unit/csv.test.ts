import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvField, csvRow } from '../../src/measurements/csv.js';

describe('CSV escaping (RFC 4180)', () => {
  it('leaves plain fields alone', () => {
    expect(csvField('ph')).toBe('ph');
    expect(csvField(6.4)).toBe('6.4');
  });

  it('quotes fields with commas, quotes and line breaks, doubling quotes', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
  });

  it('round-trips through a CSV parser', () => {
    const fields = ['x,y', '"q"', 'line\r\nbreak', 'plain', '-1.5e-7'];
    expect(parse(csvRow(fields))).toEqual([fields]);
  });
});

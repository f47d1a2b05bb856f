import { describe, expect, it } from 'vitest';
import { isNumericText, MAX_NUMERIC_TEXT } from '../../src/domain/numeric-text.js';

describe('isNumericText (HTTP numeric strings and MQTT plain numbers)', () => {
  it('reads the forms of a decimal number and nothing else', () => {
    for (const text of ['0', '-12', '+3', '1.5', '.5', '2.', '-1e3', '1E+2', ' 7 ', '\t8\n', '6.42', '1e400'])
      expect(isNumericText(text, 'number')).toBe(true);
    for (const text of ['', '.', '-', '1e', 'e3', '1.2.3', '0x10', '1_000', 'Infinity', 'NaN', '1 2', '١', '--1', '1e+', '+.e1'])
      expect(isNumericText(text, 'number')).toBe(false);
    expect(isNumericText('12', 'integer')).toBe(true);
    expect(isNumericText('-12', 'integer')).toBe(true);
    expect(isNumericText('1.0', 'integer')).toBe(false);
    expect(isNumericText('1e3', 'integer')).toBe(false);
  });

  it('takes only ASCII digits for a path id', () => {
    expect(isNumericText('0012', 'digits')).toBe(true);
    for (const text of [' 1', '1 ', '+1', '1\n', '1\t', '-1', '１', '']) expect(isNumericText(text, 'digits')).toBe(false);
  });

  it('agrees with the pattern of a number a device prints, on every short text of its characters', () => {
    const pattern = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
    const alphabet = ['1', '0', '.', '-', '+', 'e', 'x'];
    const texts = [''];
    for (let length = 1; length <= 5; length++) {
      for (const text of texts.filter((t) => t.length === length - 1)) for (const c of alphabet) texts.push(text + c);
    }
    expect(texts.filter((text) => isNumericText(text, 'number') !== pattern.test(text))).toEqual([]);
  });

  // A pattern with two ways to split a run of digits took minutes on text like this: the test's own
  // time limit is what catches it coming back, not a measured duration.
  it(`refuses text longer than ${MAX_NUMERIC_TEXT} characters, however long`, { timeout: 60_000 }, () => {
    expect(isNumericText('1'.repeat(MAX_NUMERIC_TEXT), 'number')).toBe(true);
    expect(isNumericText(`-${'1'.repeat(MAX_NUMERIC_TEXT - 1)}`, 'number')).toBe(true);
    for (const kind of ['number', 'integer', 'digits'] as const) expect(isNumericText('1'.repeat(MAX_NUMERIC_TEXT + 1), kind)).toBe(false);
    const huge = `${'1'.repeat(1 << 20)}x`;
    for (let i = 0; i < 100; i++) expect(isNumericText(huge, 'number')).toBe(false);
  });
});

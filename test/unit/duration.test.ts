import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../src/domain/duration.js';

const S = 1000;
const H = 3600 * S;
const D = 24 * H;

describe('parseDuration', () => {
  it.each([
    ['P7D', 7 * D],
    ['PT2H30M', 2.5 * H],
    ['P1DT12H', 36 * H],
    ['P2W', 14 * D],
    ['PT0.5S', 0.5 * S],
    ['pt90m', 1.5 * H],
    ['P1Y', 365 * D],
    ['07d,00:00:00', 7 * D],
    ['1 day, 02:00:00', D + 2 * H],
    ['2 days, 00:30:00', 2 * D + 0.5 * H],
    ['3 days 01:00:00', 3 * D + H],
    ['02:00:00', 2 * H],
    ['00:00:01.5', 1.5 * S],
    ['02:30', 2.5 * H],
    ['1d', D],
    ['3600', H],
    ['0.5', 0.5 * S],
    ['0', 0],
    [' P1D ', D],
  ])('reads %j', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each([
    '',
    'P',
    'PT',
    'P1DT',
    '-P1D',
    '-3600',
    '-1 day, 00:00:00',
    'yesterday',
    '1 week',
    '7x',
    '25:61:00',
    '12:00:75',
    'P1H',
    '1e3',
    'NaN',
  ])('refuses %j', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});

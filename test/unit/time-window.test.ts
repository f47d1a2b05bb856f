import { describe, expect, it } from 'vitest';
import { isWindowProblem, resolveWindow, restAfter } from '../../src/domain/time-window.js';

const now = Date.UTC(2026, 10, 22, 12);
const H = 3600_000;

describe('resolveWindow', () => {
  it('time_delta alone selects [now - delta, now]', () => {
    expect(resolveWindow({ time_delta: 'PT2H' }, now)).toEqual({ start: now - 2 * H, end: now, endInclusive: true });
  });

  it('time_delta with end_time selects [end - delta, end)', () => {
    const end = now - 10 * H;
    expect(resolveWindow({ time_delta: '3600', end_time: end }, now)).toEqual({ start: end - H, end, endInclusive: false });
  });

  it('start_time and end_time select [start, end), either may be left out', () => {
    expect(resolveWindow({ start_time: 1, end_time: 5 }, now)).toEqual({ start: 1, end: 5, endInclusive: false });
    expect(resolveWindow({ start_time: 1 }, now)).toEqual({ start: 1, end: undefined, endInclusive: false });
    expect(resolveWindow({}, now)).toEqual({ start: undefined, end: undefined, endInclusive: false });
    expect(resolveWindow({ start_time: 5, end_time: 5 }, now)).toEqual({ start: 5, end: 5, endInclusive: false });
  });

  it.each([
    [{ time_delta: 'P1D', start_time: 1 }, 'time_delta'],
    [{ time_delta: 'soon' }, 'time_delta'],
    [{ time_delta: '-PT1H' }, 'time_delta'],
    [{ start_time: 10, end_time: 5 }, 'start_time'],
  ])('refuses %j', (input, field) => {
    const result = resolveWindow(input, now);
    expect(isWindowProblem(result)).toBe(true);
    expect(result).toMatchObject({ field });
  });
});

describe('restAfter', () => {
  it('moves the start of the window up to the last row read, never back', () => {
    expect(restAfter({ start: 10, end: 50, endInclusive: false }, 20)).toEqual({ start: 20, end: 50, endInclusive: false });
    expect(restAfter({ start: 30, end: 50, endInclusive: true }, 20)).toEqual({ start: 30, end: 50, endInclusive: true });
    expect(restAfter({ endInclusive: false }, 20)).toEqual({ start: 20, endInclusive: false });
  });
});

describe('resolveWindow within the years 1 to 9999', () => {
  const yearOne = Date.parse('0001-01-01T00:00:00Z');
  it('refuses a duration longer than those years, and a start before the year 1', () => {
    for (const time_delta of ['P300000Y', '99999999999999999999', 'P10000Y']) {
      expect(resolveWindow({ time_delta }, now)).toMatchObject({ field: 'time_delta' });
    }
    expect(resolveWindow({ time_delta: 'PT1S', end_time: yearOne }, now)).toMatchObject({ field: 'time_delta', type: 'value_error' });
    expect(resolveWindow({ time_delta: 'PT1S', end_time: yearOne + 1000 }, now)).toEqual({
      start: yearOne,
      end: yearOne + 1000,
      endInclusive: false,
    });
  });
});

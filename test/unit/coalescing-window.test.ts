import { describe, expect, it } from 'vitest';
import { coalescingWindow } from '../../src/events/coalescing-window.js';
import { manualTimers } from '../helpers/manual-timers.js';

function windowOnManualTime(start: number) {
  const clock: { now: number | undefined } = { now: start };
  const manual = manualTimers(clock);
  const flushes: number[] = [];
  const window = coalescingWindow(15, { timers: manual.timers, now: () => clock.now as number }, () => flushes.push(clock.now as number));
  return { clock, manual, flushes, window };
}

describe('the coalescing window of the event streams', () => {
  it('writes at once after a quiet spell, then holds what comes within 15 ms for one flush at the end', () => {
    const { clock, manual, flushes, window } = windowOnManualTime(1_000);
    expect(window.writesNow()).toBe(true);
    clock.now = 1_010;
    expect(window.writesNow()).toBe(false);
    window.flushAtEnd();
    window.flushAtEnd();
    expect(manual.due()).toEqual([1_015]);
    manual.advanceTo(1_015);
    expect(flushes).toEqual([1_015]);
    // The flush is a write: what comes within 15 ms of it waits again.
    clock.now = 1_020;
    expect(window.writesNow()).toBe(false);
    clock.now = 1_030;
    expect(window.writesNow()).toBe(true);
  });

  it('flushes at once on shutdown, and rings no alarm afterwards', () => {
    const { clock, manual, flushes, window } = windowOnManualTime(0);
    window.writesNow();
    clock.now = 5;
    expect(window.writesNow()).toBe(false);
    window.flushAtEnd();
    window.flushNow();
    expect(flushes).toEqual([5]);
    expect(manual.due()).toEqual([]);
  });
});

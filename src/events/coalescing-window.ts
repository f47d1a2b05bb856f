import type { Timers } from '../core/timers.js';

/**
 * When the streams are written: what comes after a quiet spell at once, and what comes within
 * `coalesceMs` of the last write at the end of that window, all together. Each write to a stream
 * is a system call that also wakes the reader: a thousand streams at two hundred events a second
 * are 200,000 of them, more than two cores make, and then every event queues behind the others.
 */
export function coalescingWindow(coalesceMs: number, clock: { timers: Timers; now: () => number }, flush: () => void) {
  let timer: unknown;
  let lastWrite = -Infinity;

  function end(): void {
    timer = undefined;
    lastWrite = clock.now();
    flush();
  }

  return {
    /** True when what comes now is written at once (it then counts as the last write); false: it waits. */
    writesNow(): boolean {
      const at = clock.now();
      if (timer !== undefined || at - lastWrite < coalesceMs) return false;
      lastWrite = at;
      return true;
    },

    /** Has what waits written at the end of the window (asked once or many times). */
    flushAtEnd(): void {
      if (timer === undefined) timer = clock.timers.set(end, lastWrite + coalesceMs - clock.now());
    },

    /** Writes what waits now (on shutdown). */
    flushNow(): void {
      if (timer !== undefined) clock.timers.clear(timer);
      end();
    },
  };
}

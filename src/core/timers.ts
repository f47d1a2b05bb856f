/** The clock's alarms, injectable so that tests move time themselves instead of sleeping. */
export interface Timers {
  /** Calls `fire` once, `delayMs` from now. */
  set(fire: () => void, delayMs: number): unknown;
  clear(handle: unknown): void;
}

/** setTimeout takes at most 2^31-1 ms (Node fires a longer one at once); a later alarm rings early and is set again by its owner. */
export const LONGEST_DELAY_MS = 2 ** 31 - 1;

/** Real alarms; they never keep the process alive on their own. */
export const systemTimers: Timers = {
  set(fire, delayMs) {
    const timer = setTimeout(fire, Math.min(Math.max(0, delayMs), LONGEST_DELAY_MS));
    timer.unref();
    return timer;
  },
  clear(handle) {
    clearTimeout(handle as NodeJS.Timeout);
  },
};

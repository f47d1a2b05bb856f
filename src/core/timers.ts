/** The clock's alarms, injectable so that tests move time themselves instead of sleeping. */
export interface Timers {
  /** Calls `fire` once, `delayMs` from now. */
  set(fire: () => void, delayMs: number): unknown;
  clear(handle: unknown): void;
}

/** setTimeout takes at most 2^31-1 ms (Node fires a longer one at once); a later alarm rings early and is set again by its owner. */
export const LONGEST_DELAY_MS = 2 ** 31 - 1;

/**
 * The delay an alarm is really set for: within 0 .. LONGEST_DELAY_MS, and a NaN (an instant computed
 * from a broken stored value) waits the longest rather than ringing at once and being set again in a spin.
 */
export const boundedDelay = (delayMs: number): number =>
  Number.isNaN(delayMs) ? LONGEST_DELAY_MS : Math.min(Math.max(0, delayMs), LONGEST_DELAY_MS);

/** Real alarms; they never keep the process alive on their own. */
export const systemTimers: Timers = {
  set(fire, delayMs) {
    const timer = setTimeout(fire, boundedDelay(delayMs));
    timer.unref();
    return timer;
  },
  clear(handle) {
    clearTimeout(handle as NodeJS.Timeout);
  },
};

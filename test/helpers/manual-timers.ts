import type { Timers } from '../../src/core/timers.js';

/**
 * Alarms on the test clock: nothing rings until the test moves the clock with `advanceTo`, which
 * rings, in time order, every alarm due by then (each seeing the clock at its own instant).
 */
export function manualTimers(clock: { now: number | undefined }) {
  let nextId = 0;
  const pending = new Map<number, { at: number; fire: () => void }>();
  const timers: Timers = {
    set(fire, delayMs) {
      const id = ++nextId;
      pending.set(id, { at: (clock.now ?? Date.now()) + delayMs, fire });
      return id;
    },
    clear(handle) {
      pending.delete(handle as number);
    },
  };
  return {
    timers,
    /** The instants alarms are set for, soonest first. */
    due: () => [...pending.values()].map((p) => p.at).sort((a, b) => a - b),
    advanceTo(time: number): void {
      for (;;) {
        const next = [...pending.entries()].filter(([, p]) => p.at <= time).sort((a, b) => a[1].at - b[1].at)[0];
        if (!next) break;
        pending.delete(next[0]);
        clock.now = next[1].at;
        next[1].fire();
      }
      clock.now = time;
    },
  };
}

/**
 * Manual alarms on the clock of a service that is not started yet (its options take the timers):
 * `follow(service)` binds them to the service's clock once it is. Alarms set while the service
 * starts count from `startAt` (give the service the same instant), never from the real date.
 */
export function manualServiceTimers(startAt?: number) {
  const clock = { now: startAt };
  const manual = manualTimers(clock);
  return {
    ...manual,
    follow(service: { clock: { now: number | undefined } }): void {
      Object.defineProperty(clock, 'now', { get: () => service.clock.now, set: (v) => (service.clock.now = v) });
    },
  };
}

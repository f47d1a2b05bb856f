/**
 * A clock that moves only when told, and the alarms on it: the service's timers (alerts, decision
 * changes) take these in a fast run, so a stale sensor or an offline controller is noticed at its
 * simulated moment rather than hours of real time later.
 */
import type { Timers } from '../core/timers.js';

export interface SimulatedClock {
  now: () => number;
  timers: Timers;
  /** Moves the clock to `time`, ringing in order every alarm due by then (each at its own instant). */
  advanceTo(time: number): void;
}

export function simulatedClock(startMs: number): SimulatedClock {
  let current = startMs;
  let nextId = 0;
  const pending = new Map<number, { at: number; fire: () => void }>();
  return {
    now: () => current,
    timers: {
      set(fire, delayMs) {
        const id = ++nextId;
        pending.set(id, { at: current + Math.max(0, delayMs), fire });
        return id;
      },
      clear(handle) {
        pending.delete(handle as number);
      },
    },
    advanceTo(time) {
      for (;;) {
        let due: [number, { at: number; fire: () => void }] | undefined;
        for (const entry of pending) if (entry[1].at <= time && (!due || entry[1].at < due[1].at)) due = entry;
        if (!due) break;
        pending.delete(due[0]);
        current = Math.max(current, due[1].at);
        due[1].fire();
      }
      current = Math.max(current, time);
    },
  };
}

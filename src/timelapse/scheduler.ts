import { endOf, type FrameGrid, nextSlot, slotCount, slotDue } from './schedule.js';

/** The clock and timers the scheduler runs on, injectable so its tests need no sleeps. */
export interface Timers {
  now(): number;
  setTimeout(fire: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimers = (now: () => number = Date.now): Timers => ({
  now,
  setTimeout: (fire, ms) => setTimeout(fire, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
});

/** Node fires a timer of more than 2^31-1 ms at once, so a longer wait is taken in steps. */
export const LONGEST_TIMER_MS = 2 ** 31 - 1;

export interface FrameSchedulerOptions {
  grid: FrameGrid;
  /** The first slot not yet accounted for: 0 for a new timelapse, more for one that resumes. */
  from: number;
  timers: Timers;
  /** Takes the frame of a slot; not called again before its promise settles. */
  takeFrame(slot: number): Promise<void>;
  /** Slots whose period went by without a frame: the previous one took too long, or the service was down. */
  onMissed(count: number): void;
  /** The end has come and the last frame is taken; nothing runs after this. */
  onEnd(): void;
}

export interface FrameScheduler {
  start(): void;
  /** No frame is started after this; resolves once the one being taken (if any) has settled. */
  stop(): Promise<void>;
}

/**
 * Takes one frame per slot of the grid, one at a time, each at its due time: a frame that takes
 * longer than the frequency delays only the next one (taken at once while its period lasts), never
 * the grid, and the slots it overran are reported as missed.
 */
export function frameScheduler(options: FrameSchedulerOptions): FrameScheduler {
  const { grid, timers } = options;
  let stopped = false;
  let timer: unknown;
  let inFlight: Promise<void> | undefined;

  const at = (time: number, run: () => void) => {
    const delay = time - timers.now();
    if (delay <= 0) return run();
    timer = timers.setTimeout(
      () => {
        timer = undefined;
        if (!stopped) at(time, run);
      },
      Math.min(delay, LONGEST_TIMER_MS),
    );
  };

  const take = (slot: number) => {
    // The frame taker reports its own failures; one that throws must not stop the grid.
    const current = options.takeFrame(slot).catch(() => undefined);
    inFlight = current;
    void current.then(() => {
      inFlight = undefined;
      advance(slot + 1);
    });
  };

  const advance = (from: number) => {
    if (stopped) return;
    const { slot, missed } = nextSlot(grid, from, timers.now());
    if (missed > 0) options.onMissed(missed);
    if (slot < slotCount(grid)) return at(slotDue(grid, slot), () => take(slot));
    at(endOf(grid), () => {
      stopped = true;
      options.onEnd();
    });
  };

  return {
    start: () => advance(options.from),
    stop() {
      stopped = true;
      if (timer !== undefined) timers.clearTimeout(timer);
      timer = undefined;
      return inFlight ?? Promise.resolve();
    },
  };
}

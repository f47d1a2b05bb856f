import { LONGEST_DELAY_MS, type Timers } from '../core/timers.js';
import { endOf, type FrameGrid, nextSlot, slotCount, slotDue } from './schedule.js';

export interface FrameSchedulerOptions {
  grid: FrameGrid;
  /** The first slot not yet accounted for: 0 for a new timelapse, more for one that resumes. */
  from: number;
  /** The clock and its alarms, injectable so that tests need no sleeps. */
  now: () => number;
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
  const { grid, timers, now } = options;
  let stopped = false;
  let timer: unknown;
  let inFlight: Promise<void> | undefined;

  const at = (time: number, run: () => void) => {
    const delay = time - now();
    if (delay <= 0) return run();
    // A longer wait than an alarm can take is taken in steps.
    timer = timers.set(
      () => {
        timer = undefined;
        if (!stopped) at(time, run);
      },
      Math.min(delay, LONGEST_DELAY_MS),
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
    const { slot, missed } = nextSlot(grid, from, now());
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
      if (timer !== undefined) timers.clear(timer);
      timer = undefined;
      return inFlight ?? Promise.resolve();
    },
  };
}

import { describe, expect, it } from 'vitest';
import { LONGEST_DELAY_MS, type Timers } from '../../src/core/timers.js';
import { frameScheduler } from '../../src/timelapse/scheduler.js';
import { nextSlot, slotAt, slotCount, slotDue } from '../../src/timelapse/schedule.js';
import { timelapseConfigIssues } from '../../src/timelapse/rules.js';

/** A clock that moves only when told, with the timers due on the way fired in order. */
function manualClock(start: number) {
  let now = start;
  let pending: { at: number; fire: () => void }[] = [];
  const delays: number[] = [];
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  const timers: Timers = {
    set(fire, ms) {
      delays.push(ms);
      const timer = { at: now + ms, fire };
      pending.push(timer);
      return timer;
    },
    clear(handle) {
      pending = pending.filter((t) => t !== handle);
    },
  };
  return {
    timers,
    delays,
    get now() {
      return now;
    },
    pendingCount: () => pending.length,
    /** Moves the clock to `time`, firing each timer at its own moment and letting promises settle. */
    async advanceTo(time: number) {
      await settle();
      for (;;) {
        const next = pending.filter((t) => t.at <= time).sort((a, b) => a.at - b.at)[0];
        if (!next) break;
        pending = pending.filter((t) => t !== next);
        now = next.at;
        next.fire();
        await settle();
      }
      now = time;
      await settle();
    },
  };
}

const START = 1_700_000_000_000;

function scheduled(options: {
  frequencyMs: number;
  durationMs: number;
  from?: number;
  clock: ReturnType<typeof manualClock>;
  takes?: (slot: number) => Promise<void>;
}) {
  const taken: { slot: number; at: number }[] = [];
  const events = { missed: 0, ended: 0, endedAt: -1 };
  const scheduler = frameScheduler({
    grid: { startMs: START, frequencyMs: options.frequencyMs, durationMs: options.durationMs },
    from: options.from ?? 0,
    now: () => options.clock.now,
    timers: options.clock.timers,
    takeFrame: async (slot) => {
      taken.push({ slot, at: options.clock.now });
      await options.takes?.(slot);
    },
    onMissed: (count) => {
      events.missed += count;
    },
    onEnd: () => {
      events.ended++;
      events.endedAt = options.clock.now;
    },
  });
  return { scheduler, taken, events };
}

/** A frame that takes `ms` of the manual clock. */
const taking = (clock: ReturnType<typeof manualClock>, ms: number) => () => new Promise<void>((resolve) => clock.timers.set(resolve, ms));

describe('the frame grid', () => {
  const grid = { startMs: 0, frequencyMs: 1000, durationMs: 3000 };
  it('holds every slot due before the end', () => {
    expect(slotCount(grid)).toBe(3);
    expect(slotCount({ ...grid, durationMs: 3500 })).toBe(4);
    expect(slotCount({ ...grid, durationMs: 1000 })).toBe(1);
    expect(slotDue(grid, 2)).toBe(2000);
  });

  it('gives a frame to the slot whose period it falls in', () => {
    expect(slotAt(grid, -5)).toBe(0);
    expect(slotAt(grid, 999)).toBe(0);
    expect(slotAt(grid, 1000)).toBe(1);
    expect(nextSlot(grid, 1, 1500)).toEqual({ slot: 1, missed: 0 });
    expect(nextSlot(grid, 1, 2300)).toEqual({ slot: 2, missed: 1 });
    expect(nextSlot(grid, 0, 10_000)).toEqual({ slot: 10, missed: 3 });
  });
});

describe('timelapse configuration rules', () => {
  it('needs a duration of at least one frequency', () => {
    expect(timelapseConfigIssues({ frequency: 10, duration: 10 }, 100)).toEqual([]);
    expect(timelapseConfigIssues({ frequency: 10, duration: 9 }, 100)).toEqual([
      { loc: ['body', 'duration'], msg: 'duration (9 s) must be at least frequency (10 s)', type: 'duration_too_short' },
    ]);
  });

  it('keeps the planned frames within the limit', () => {
    expect(timelapseConfigIssues({ frequency: 1, duration: 100 }, 100)).toEqual([]);
    expect(timelapseConfigIssues({ frequency: 1, duration: 101 }, 100)[0]).toMatchObject({ type: 'too_many_frames' });
    expect(timelapseConfigIssues({ frequency: 3, duration: 301 }, 100)[0].msg).toMatch(/101 frames/);
  });
});

describe('frameScheduler', () => {
  it('takes frame n at start + n × frequency and ends at start + duration', async () => {
    const clock = manualClock(START);
    const { scheduler, taken, events } = scheduled({ frequencyMs: 1000, durationMs: 3500, clock });
    scheduler.start();
    await clock.advanceTo(START + 10_000);
    expect(taken).toEqual([0, 1, 2, 3].map((slot) => ({ slot, at: START + slot * 1000 })));
    expect(events).toEqual({ missed: 0, ended: 1, endedAt: START + 3500 });
    expect(clock.pendingCount()).toBe(0);
  });

  it('does not let a late frame move the ones after it', async () => {
    const clock = manualClock(START);
    const { scheduler, taken, events } = scheduled({
      frequencyMs: 1000,
      durationMs: 5000,
      clock,
      takes: (slot) => (slot === 1 ? taking(clock, 1500)() : Promise.resolve()),
    });
    scheduler.start();
    await clock.advanceTo(START + 10_000);
    // Slot 1 overran into slot 2's period: slot 2 is taken at once, late, and slot 3 on time.
    expect(taken.map((t) => [t.slot, t.at - START])).toEqual([
      [0, 0],
      [1, 1000],
      [2, 2500],
      [3, 3000],
      [4, 4000],
    ]);
    expect(events.missed).toBe(0);
    expect(events.endedAt).toBe(START + 5000);
  });

  it('counts the slots a slow frame overran as missed, and goes on with the grid', async () => {
    const clock = manualClock(START);
    const { scheduler, taken, events } = scheduled({
      frequencyMs: 1000,
      durationMs: 5000,
      clock,
      takes: (slot) => (slot === 0 ? taking(clock, 2300)() : Promise.resolve()),
    });
    scheduler.start();
    await clock.advanceTo(START + 10_000);
    expect(taken.map((t) => [t.slot, t.at - START])).toEqual([
      [0, 0],
      [2, 2300],
      [3, 3000],
      [4, 4000],
    ]);
    expect(events.missed).toBe(1);
    expect(taken.length + events.missed).toBe(slotCount({ startMs: START, frequencyMs: 1000, durationMs: 5000 }));
  });

  it('keeps going when a frame fails', async () => {
    const clock = manualClock(START);
    const { scheduler, taken, events } = scheduled({
      frequencyMs: 1000,
      durationMs: 3000,
      clock,
      takes: async (slot) => {
        if (slot === 1) throw new Error('camera gone');
      },
    });
    scheduler.start();
    await clock.advanceTo(START + 5000);
    expect(taken.map((t) => t.slot)).toEqual([0, 1, 2]);
    expect(events.ended).toBe(1);
  });

  it('resumes from the first slot not accounted for, counting those that passed as missed', async () => {
    const clock = manualClock(START + 4500);
    const { scheduler, taken, events } = scheduled({ frequencyMs: 1000, durationMs: 6000, from: 2, clock });
    scheduler.start();
    await clock.advanceTo(START + 10_000);
    // Slots 2 and 3 passed while it was down; slot 4's period is under way, so it is taken at once.
    expect(taken.map((t) => [t.slot, t.at - START])).toEqual([
      [4, 4500],
      [5, 5000],
    ]);
    expect(events).toMatchObject({ missed: 2, ended: 1, endedAt: START + 6000 });
  });

  it('ends at once when it resumes after its end', async () => {
    const clock = manualClock(START + 60_000);
    const { scheduler, taken, events } = scheduled({ frequencyMs: 1000, durationMs: 3000, from: 1, clock });
    scheduler.start();
    await clock.advanceTo(START + 60_000);
    expect(taken).toEqual([]);
    expect(events).toEqual({ missed: 2, ended: 1, endedAt: START + 60_000 });
  });

  it('stops: no frame after, the one being taken waited for, and no end', async () => {
    const clock = manualClock(START);
    let finished = false;
    const { scheduler, taken, events } = scheduled({
      frequencyMs: 1000,
      durationMs: 10_000,
      clock,
      takes: (slot) => (slot === 2 ? taking(clock, 500)().then(() => void (finished = true)) : Promise.resolve()),
    });
    scheduler.start();
    await clock.advanceTo(START + 2100);
    const stopped = scheduler.stop();
    let resolved = false;
    void stopped.then(() => (resolved = true));
    await clock.advanceTo(START + 2200);
    expect(resolved).toBe(false);
    await clock.advanceTo(START + 20_000);
    expect(finished).toBe(true);
    expect(resolved).toBe(true);
    expect(taken.map((t) => t.slot)).toEqual([0, 1, 2]);
    expect(events.ended).toBe(0);
    expect(clock.pendingCount()).toBe(0);
  });

  it('waits longer than a Node timer can in steps, and is on time', async () => {
    const day = 24 * 3600_000;
    const clock = manualClock(START);
    const { scheduler, taken, events } = scheduled({ frequencyMs: 30 * day, durationMs: 60 * day, clock });
    scheduler.start();
    await clock.advanceTo(START + 61 * day);
    expect(taken.map((t) => t.at - START)).toEqual([0, 30 * day]);
    expect(events.endedAt).toBe(START + 60 * day);
    expect(Math.max(...clock.delays)).toBeLessThanOrEqual(LONGEST_DELAY_MS);
  });
});

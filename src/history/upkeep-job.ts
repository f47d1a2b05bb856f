import type { Logger } from '../core/logger.js';
import type { Store } from '../store/index.js';

export interface UpkeepOptions {
  /** Time between rollup passes. */
  rollupEveryMs?: number;
  /** Time between checks that tomorrow's partitions exist. */
  partitionsEveryMs?: number;
}

type Upkeep = NonNullable<Store['upkeep']>;

/**
 * PostgreSQL's upkeep in the background: the day partitions of today and the days ahead made
 * ahead of time (every hour; making them is idempotent and instances take turns), and the rollup
 * of the hours ingest noted into their hourly and daily buckets (every 30 s, on one instance at a
 * time under a lease), pass after pass of short transactions until none is left.
 */
export function upkeepJob(store: Store, upkeep: Upkeep, now: () => number, log: Logger, options: UpkeepOptions = {}) {
  const rollupEveryMs = options.rollupEveryMs ?? 30_000;
  const partitionsEveryMs = options.partitionsEveryMs ?? 3_600_000;
  const timers = new Set<NodeJS.Timeout>();
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;

  /** Folds every noted hour; answers how many (undefined when another instance holds the rollup). */
  async function rollUp(): Promise<number | undefined> {
    return store.exclusively('history-rollup', async () => {
      let total = 0;
      for (;;) {
        if (stopped) return total;
        const n = await upkeep.rollUp();
        total += n;
        if (n === 0) return total;
        await new Promise((resolve) => setImmediate(resolve));
      }
    });
  }

  async function partitionsAhead(): Promise<number[]> {
    const made = await upkeep.partitionsAhead(now());
    if (made.length > 0) log.info({ days: made.map((d) => new Date(d).toISOString().slice(0, 10)) }, 'partitions: made ahead');
    return made;
  }

  function every(ms: number, work: () => Promise<unknown>, what: string): void {
    const run = () => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        running = work()
          .catch((error: unknown) => log.error({ err: error }, `${what} failed`))
          .finally(() => {
            if (!stopped) run();
          });
      }, ms);
      timer.unref();
      timers.add(timer);
    };
    run();
  }

  return {
    rollUp,
    partitionsAhead,
    start(): void {
      stopped = false;
      every(partitionsEveryMs, partitionsAhead, 'partitions: making ahead');
      every(rollupEveryMs, rollUp, 'history rollup');
    },
    async stop(): Promise<void> {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await running;
    },
  };
}

import { retentionCutoffs, type RetentionPolicy } from './retention.js';
import type { Logger } from '../core/logger.js';
import type { Store } from '../store/index.js';

export interface RetentionOptions {
  /** Rows per delete: each batch is a short transaction, so ingest waits for none of them long. */
  batchSize?: number;
  /** Time between passes. */
  intervalMs?: number;
}

export interface RetentionTotals {
  raw: number;
  fiveMinute: number;
}

/**
 * Retention of raw measurements and 5-minute buckets (docs/api.md §10): a pass in the background every
 * `intervalMs`, deleting in small batches, each its own transaction, with the event loop let go
 * between them. On PostgreSQL the raw rows go by whole day partitions instead (detached, then
 * dropped: nothing left for vacuum), and one instance at a time runs a pass (a lease); the others
 * skip it. The cutoff of raw rows is recorded before any is deleted, so that deletes of single
 * measurements never recompute a bucket whose raw rows are being retired.
 */
export function retentionJob(store: Store, policy: RetentionPolicy, now: () => number, log: Logger, options: RetentionOptions = {}) {
  const batchSize = options.batchSize ?? 1000;
  const intervalMs = options.intervalMs ?? 60_000;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = false;

  async function retire(what: string, sensorIds: number[], batch: (sensorId: number) => Promise<number>): Promise<number> {
    let total = 0;
    let batches = 0;
    for (const sensorId of sensorIds) {
      for (;;) {
        if (stopped) return total;
        const n = await batch(sensorId);
        total += n;
        if (++batches % 100 === 0) log.info({ what, deleted: total }, 'retention: progress');
        // Let requests run between batches.
        await new Promise((resolve) => setImmediate(resolve));
        if (n < batchSize) break;
      }
    }
    return total;
  }

  /** PostgreSQL: whole day partitions dropped (no row deleted one by one); the rows they held. */
  async function dropDays(upkeep: NonNullable<Store['upkeep']>, cutoff: number): Promise<number> {
    // The hours still noted are folded first: the days about to go keep whole hourly and daily buckets.
    while ((await upkeep.rollUp()) > 0) if (stopped) return 0;
    let rows = 0;
    for (const day of await upkeep.dropRawBefore(cutoff)) {
      rows += day.rows;
      log.info({ partition: day.name, rows: day.rows, ms: day.ms }, 'retention: day dropped');
    }
    return rows;
  }

  /** One pass; undefined when another instance holds the pass. */
  async function runOnce(): Promise<RetentionTotals | undefined> {
    const cutoffs = retentionCutoffs(policy, now());
    if (cutoffs.raw === undefined) return { raw: 0, fiveMinute: 0 };
    const { raw, fiveMinute } = cutoffs;
    return store.exclusively('retention', async () => {
      const began = Date.now();
      await store.transaction((tx) => tx.history.retireBefore(raw));
      const sensorIds = (await store.sensors.list()).map((s) => s.sensor_id);
      const totals = {
        raw: store.upkeep
          ? await dropDays(store.upkeep, raw)
          : await retire('raw', sensorIds, (id) => store.transaction((tx) => tx.history.retireRaw(id, raw, batchSize))),
        fiveMinute:
          fiveMinute === undefined
            ? 0
            : await retire('5m', sensorIds, (id) => store.transaction((tx) => tx.history.retireFiveMinute(id, fiveMinute, batchSize))),
      };
      log.info({ ...totals, rawBefore: new Date(raw).toISOString(), ms: Date.now() - began }, 'retention: pass done');
      return totals;
    });
  }

  function schedule(delayMs: number): void {
    if (stopped) return;
    timer = setTimeout(() => {
      running = runOnce()
        .catch((error: unknown) => log.error({ err: error }, 'retention: pass failed'))
        .finally(() => {
          running = undefined;
          schedule(intervalMs);
        });
    }, delayMs);
    timer.unref();
  }

  return {
    runOnce,
    start(): void {
      stopped = false;
      schedule(0);
    },
    async stop(): Promise<void> {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

import type { Config } from '../config/index.js';
import type { Logger } from '../core/logger.js';
import type { App } from '../http/app-type.js';
import type { Store } from '../store/index.js';
import { retentionJob } from './retention-job.js';
import { upkeepJob } from './upkeep-job.js';
import historyRoutes, { type HistoryRouteDeps } from './routes.js';

export interface HistoryDeps extends HistoryRouteDeps {
  config: Pick<Config, 'retentionRawMs' | 'retentionFiveMinuteMs'>;
  store: Store;
  now: () => number;
  log: Logger;
}

/**
 * History (§10): the aggregate route, the retention job when RETENTION_RAW is set, and on
 * PostgreSQL the upkeep of partitions and buckets (§19): they start once the app is ready and stop
 * before the store closes.
 */
export async function register(app: App, deps: HistoryDeps): Promise<void> {
  await app.register(historyRoutes, deps);
  const { config, store, now, log } = deps;
  if (store.upkeep) {
    const upkeep = upkeepJob(store, store.upkeep, now, log);
    app.addHook('onReady', async () => upkeep.start());
    app.addHook('preClose', async () => upkeep.stop());
  }
  if (config.retentionRawMs === undefined) return;
  const retention = retentionJob(store, { rawMs: config.retentionRawMs, fiveMinuteMs: config.retentionFiveMinuteMs }, now, log);
  app.addHook('onReady', async () => retention.start());
  app.addHook('preClose', async () => retention.stop());
}

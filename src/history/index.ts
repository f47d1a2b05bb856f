import type { Config } from '../config/index.js';
import type { Logger } from '../core/logger.js';
import type { App } from '../http/app-type.js';
import type { Store } from '../store/index.js';
import { retentionJob } from './retention-job.js';
import historyRoutes, { type HistoryRouteDeps } from './routes.js';

export interface HistoryDeps extends HistoryRouteDeps {
  config: Pick<Config, 'retentionRawMs' | 'retentionFiveMinuteMs'>;
  store: Store;
  now: () => number;
  log: Logger;
}

/**
 * History (§10): the aggregate route, and the retention job when RETENTION_RAW is set: it starts
 * once the app is ready and stops before the store closes.
 */
export async function register(app: App, deps: HistoryDeps): Promise<void> {
  await app.register(historyRoutes, deps);
  const { config, store, now, log } = deps;
  if (config.retentionRawMs === undefined) return;
  const retention = retentionJob(store, { rawMs: config.retentionRawMs, fiveMinuteMs: config.retentionFiveMinuteMs }, now, log);
  app.addHook('onReady', async () => retention.start());
  app.addHook('preClose', async () => retention.stop());
}

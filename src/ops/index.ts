import type { App } from '../http/app-type.js';
import type { Metrics } from '../http/metrics.js';
import type { Store } from '../store/index.js';
import metricsRoutes from './metrics-route.js';
import opsRoutes, { type OpsRouteDeps } from './routes.js';

export interface OpsDeps extends OpsRouteDeps {
  store: OpsRouteDeps['store'] & Pick<Store, 'instruments'>;
  metrics: Metrics;
}

/**
 * Operations (§8): the health route and the Prometheus metrics, which count what the store
 * ingests and how the group commit joins writes.
 */
export async function register(app: App, deps: OpsDeps): Promise<void> {
  const { store, metrics } = deps;
  store.instruments.ingested = metrics.ingested;
  store.instruments.groupCommitted = metrics.groupCommit;
  await app.register(opsRoutes, deps);
  await app.register(metricsRoutes, { metrics });
}

import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { requestSeries } from './request-metrics.js';

export type { RequestObserver } from './request-metrics.js';

/** The label of requests that matched no route: one series for every unknown path, not one each. */
export const UNMATCHED_ROUTE = 'unmatched';

/** Seconds; from a polled read answered from memory (well under a millisecond) to a long export. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const SIZE_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 4096, 10_000, 50_000];

export interface PoolUse {
  total: number;
  idle: number;
  waiting: number;
}

/**
 * The service's Prometheus metrics, in a registry of its own (one per app, so tests that build
 * several apps in one process do not share counts).
 */
export function createMetrics(options: { poolUse?: () => PoolUse } = {}) {
  const registry = new Registry();
  // Node's own metrics (CPU, memory, event loop lag, GC) start with the first scrape: their event
  // loop probe wakes the process every 10 ms, which a board nobody scrapes need not pay for.
  // The counters among them (CPU time, GC counts since then) are cumulative from then on.
  let processMetrics = false;
  const requests = requestSeries(
    { name: 'sensorhub_http_requests_total', help: 'HTTP requests answered, by method, route pattern and status.' },
    {
      name: 'sensorhub_http_request_duration_seconds',
      help: 'Time from the request to its answer, by method, route pattern and status.',
      buckets: LATENCY_BUCKETS,
    },
  );
  const ingested = new Counter({
    name: 'sensorhub_measurements_ingested_total',
    help: 'Measurements recorded through POST /measurements (committed).',
    registers: [registry],
  });
  const commitRequests = new Histogram({
    name: 'sensorhub_group_commit_requests',
    help: 'Ingest requests that shared one commit (group commit).',
    buckets: SIZE_BUCKETS,
    registers: [registry],
  });
  const commitRows = new Histogram({
    name: 'sensorhub_group_commit_rows',
    help: 'Measurements written by one commit of the group commit.',
    buckets: SIZE_BUCKETS,
    registers: [registry],
  });
  const { poolUse } = options;
  if (poolUse) {
    const gauge = (name: string, help: string, read: (use: PoolUse) => number) =>
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          this.set(read(poolUse()));
        },
      });
    gauge('sensorhub_db_pool_connections', 'PostgreSQL connections open in this process.', (u) => u.total);
    gauge('sensorhub_db_pool_idle_connections', 'PostgreSQL connections open and idle.', (u) => u.idle);
    gauge('sensorhub_db_pool_waiting_requests', 'Queries waiting for a PostgreSQL connection.', (u) => u.waiting);
  }

  return {
    registry,
    /** An observer for one (method, route, status): bind it once where the same labels recur. */
    observer: requests.observer,
    /** Records a request answered by a route (or by none: `route` undefined). */
    request(method: string, route: string | undefined, status: number, seconds: number): void {
      requests.observer(method, route ?? UNMATCHED_ROUTE, status)(seconds);
    },
    /** Everything, in the Prometheus text format. */
    async text(): Promise<string> {
      if (!processMetrics) {
        processMetrics = true;
        collectDefaultMetrics({ register: registry });
      }
      return (await registry.metrics()) + requests.text();
    },
    ingested(rows: number): void {
      ingested.inc(rows);
    },
    groupCommit(requests: number, rows: number): void {
      commitRequests.observe(requests);
      commitRows.observe(rows);
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

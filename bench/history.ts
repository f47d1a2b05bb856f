/**
 * `npm run build && node --import tsx bench/history.ts`: the history figures of docs/api.md §10, printed
 * as a table (copy it to BENCHMARKS.md).
 *
 * For each scale (BENCH_HISTORY_SCALES, total rows, default `10000,10000000`) and store
 * (BENCH_STORES, default `sqlite`; add `postgres` with BENCH_PG_URL): a store of that many rows
 * where sensor 1 holds a year sampled every 10 s (3.15 million rows at full scale, scaled down
 * with the store) and nine other sensors the rest, written raw into a store of the release before
 * history; then
 * - the upgrade migration that builds the buckets (time, rows per second);
 * - GET /measurements/1/aggregate?bucket=1h over the year and GET /measurements/1?max_points=1000
 *   over the year, one connection, p50 and p99 (autocannon, BENCH_DURATION seconds, default 10);
 * - the raw path beside them: the store's min/max per time span over the same year (what
 *   max_points read before the buckets), timed in process.
 */
import { loadavg } from 'node:os';
import pg from 'pg';
import { BucketLayout } from '../src/domain/buckets.js';
import { openStore } from '../src/store/index.js';
import { load } from './lib/load.js';
import { oldStore } from './lib/old-store.js';
import { startService } from './lib/processes.js';
import { temporaryFolder } from './lib/temporary.js';

const duration = Number(process.env.BENCH_DURATION ?? 10);
const scales = (process.env.BENCH_HISTORY_SCALES ?? '10000,10000000').split(',').map(Number);
const stores = (process.env.BENCH_STORES ?? 'sqlite').split(',');
const pgAdminUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const YEAR = 365 * 24 * 3600_000;
const SENSORS = 10;
const FULL_SENSOR_ROWS = 3_153_600;
const log = (message: string) => console.error(`[bench] ${message}`);
const table: string[][] = [];

/** Sensor 1: a year every 10 s (fewer, evenly spread, at smaller scales); the other sensors the rest. */
function* rows(total: number, now: number): Generator<[number, number, number]> {
  const first = Math.round((total * FULL_SENSOR_ROWS) / 10_000_000);
  for (let i = 0; i < first; i++) yield [1, 20 + Math.sin(i / 500) * 5, now - YEAR + Math.floor((i * YEAR) / first)];
  const rest = total - first;
  for (let i = 0; i < rest; i++) yield [2 + (i % (SENSORS - 1)), 6 + Math.cos(i / 700), now - YEAR + Math.floor((i * YEAR) / rest)];
}

/**
 * Posts measurements of sensor 1 into past days of its year while a read runs, each into another
 * day: every one changes the buckets of a day the read answers, as late data from a device that
 * was offline does.
 */
const LATE_PER_S = 5;
function lateWriter(url: string, now: number): { stop(): void } {
  let n = 0;
  const timer = setInterval(() => {
    n++;
    const timestamp = new Date(now - 1000 - ((n * 86_413_000) % (YEAR - 2 * 86_400_000))).toISOString();
    fetch(`${url}/measurements`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sensor_id: 1, value: 21, timestamp }),
    }).catch((error: unknown) => log(`late measurement refused: ${String(error)}`));
  }, 1000 / LATE_PER_S);
  return { stop: () => clearInterval(timer) };
}

async function scratchUrl(store: string, folder: string, name: string): Promise<{ url: string; drop(): Promise<void> }> {
  if (store === 'sqlite') return { url: `sqlite:${folder}/${name}.db`, drop: async () => {} };
  const admin = new pg.Client({ connectionString: pgAdminUrl });
  await admin.connect();
  const db = `sensorhub_bench_history_${name}`;
  await admin.query(`drop database if exists ${db} with (force)`);
  await admin.query(`create database ${db}`);
  await admin.end();
  const url = new URL(pgAdminUrl);
  url.pathname = `/${db}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: pgAdminUrl });
      await c.connect();
      await c.query(`drop database if exists ${db} with (force)`);
      await c.end();
    },
  };
}

async function main(): Promise<void> {
  const folder = temporaryFolder('sensorhub-bench-history-');
  try {
    for (const store of stores) {
      for (const total of scales) {
        const label = `${store}, ${total.toLocaleString('en-US')} rows`;
        const database = await scratchUrl(store, folder.path, String(total));
        try {
          const now = Date.now();
          log(`${label}: filling`);
          await oldStore(database.url, SENSORS, rows(total, now));
          const began = performance.now();
          const cpuBefore = process.cpuUsage();
          const opened = await openStore(database.url, { seedDefaults: false, log: (d, m) => log(`${m} ${JSON.stringify(d)}`) });
          const migrationMs = performance.now() - began;
          // The process's own CPU time beside the wall time: on a shared machine the wall time
          // mostly says how long the process waited for a core.
          const cpu = process.cpuUsage(cpuBefore);
          table.push([
            label,
            'migration building the buckets',
            `${(migrationMs / 1000).toFixed(1)} s (CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s)`,
            `${Math.round(total / (migrationMs / 1000)).toLocaleString('en-US')} rows/s; load average ${loadavg()[0].toFixed(1)}`,
          ]);

          const span = await opened.measurements.windowSpan(1, { start: now - YEAR, end: now + 1, endInclusive: false });
          const rawBegan = performance.now();
          await opened.measurements.extremesPerBucket(
            1,
            { start: now - YEAR, end: now + 1, endInclusive: false },
            new BucketLayout(span.first, span.last, 500),
            span.count,
          );
          table.push([
            label,
            `raw path: min/max per span over sensor 1's year (${span.count.toLocaleString('en-US')} rows), in process`,
            `${Math.round(performance.now() - rawBegan)} ms`,
            'once',
          ]);
          await opened.close();

          const service = await startService({ DATABASE_URL: database.url, LOG_LEVEL: 'warn', SEED_DEFAULTS: 'false' });
          try {
            const start = new Date(now - YEAR).toISOString();
            const end = new Date(now).toISOString();
            const hourly = `/measurements/1/aggregate?bucket=1h&start_time=${start}&end_time=${end}`;
            const points = `/measurements/1?max_points=1000&start_time=${start}&end_time=${end}`;
            for (const [name, path, withLateData] of [
              ['GET /measurements/1/aggregate?bucket=1h, one year', hourly, false],
              ['GET /measurements/1?max_points=1000, one year', points, false],
              [`GET /measurements/1/aggregate?bucket=1h, one year, ${LATE_PER_S} late measurements/s into past days`, hourly, true],
              [`GET /measurements/1?max_points=1000, one year, ${LATE_PER_S} late measurements/s into past days`, points, true],
            ] as const) {
              const late = withLateData ? lateWriter(service.url, now) : undefined;
              const result = await load({ url: service.url + path, connections: 1, durationS: duration });
              late?.stop();
              const clean = result.errors === 0 && result.non2xx === 0 ? '' : ` (${result.errors} errors, ${result.non2xx} non-2xx)`;
              table.push([
                label,
                name,
                `p50 ${result.p50} ms, p99 ${result.p99} ms${clean}`,
                `${Math.round(result.rps)}/s at 1 connection; load average ${loadavg()[0].toFixed(1)}`,
              ]);
              log(`${label}: ${name}: p50 ${result.p50} ms, p99 ${result.p99} ms`);
            }
          } finally {
            await service.stop();
          }
        } finally {
          await database.drop();
        }
      }
    }
  } finally {
    folder.remove();
  }
  console.log('| store, size | scenario | figure | detail |\n|---|---|---|---|');
  for (const r of table) console.log(`| ${r.join(' | ')} |`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

/**
 * `npm run bench`: the device-traffic scenarios against the floor of this machine.
 *
 * For each HTTP scenario it measures throughput and p50/p99 latency with autocannon on loopback,
 * and beside it the floor: a plain node:http server that reads the same request and answers a
 * fixed small JSON body, driven by the same generator with the same connections and duration.
 * The two alternate in slices (floor, service, floor, service…), so both see the same drift in
 * this machine's speed; the ratio is the median of the slices' ratios. It prints a table with
 * each rate's ratio to its floor and appends it to BENCHMARKS.md.
 *
 * Options (environment): BENCH_DURATION (seconds per scenario, and as many for its floor; default 10), BENCH_CONNECTIONS
 * (default 64), BENCH_PG_URL (PostgreSQL for the PostgreSQL scenarios; default the local server,
 * skipped when it does not answer), BENCH_SKIP (comma-separated scenario groups to leave out:
 * http, window, export, random, postgres), BENCH_WINDOW_SIZES (default 10000,1000000,10000000).
 */
import { appendFileSync, existsSync, rmSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { againstFloor, type Compared } from './lib/load.js';
import { startFloor, startService } from './lib/processes.js';
import { exportScenario, fillMeasurements, randomScenario, windowScenario } from './lib/scenarios.js';
import { postgresAnswers } from './lib/postgres.js';
import { temporaryFolder } from './lib/temporary.js';

const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 64);
const skip = new Set((process.env.BENCH_SKIP ?? '').split(',').filter(Boolean));
const windowSizes = (process.env.BENCH_WINDOW_SIZES ?? '10000,1000000,10000000').split(',').map(Number);

interface Row {
  scenario: string;
  rate: string;
  /** The floor's rate in the slices taken beside this scenario. */
  floor: string;
  ratio: string;
  p50: string;
  p99: string;
  target: string;
  met: string;
}
const rows: Row[] = [];

function log(message: string): void {
  console.error(`[bench] ${message}`);
}

const fmt = (n: number) => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(2));

function httpRow(
  scenario: string,
  { service, floor, ratio: perRequest }: Compared,
  unit: number,
  target: number,
  targetText: string,
): void {
  const rate = service.rps * unit;
  const ratio = perRequest * unit;
  const clean = service.errors === 0 && service.non2xx === 0;
  rows.push({
    scenario,
    rate: `${fmt(rate)}/s${unit > 1 ? ' measurements' : ''}`,
    floor: `${fmt(floor.rps)}/s`,
    ratio: `${ratio.toFixed(2)}×`,
    p50: `${service.p50} ms`,
    p99: `${service.p99} ms`,
    target: targetText,
    met: ratio >= target && clean ? 'yes' : `no${clean ? '' : ` (${service.errors} errors, ${service.non2xx} non-2xx)`}`,
  });
  log(`${scenario}: ${fmt(rate)}/s, floor ${fmt(floor.rps)}/s, ${ratio.toFixed(2)}× floor, p50 ${service.p50} ms, p99 ${service.p99} ms`);
}

const single = '{"sensor_id":1,"value":6.4}';
const batch = JSON.stringify(Array.from({ length: 100 }, (_, i) => ({ sensor_id: 1 + (i % 3), value: 6 + (i % 10) / 10 })));

/** The device-traffic scenarios on one store, each against the floor in slices taken beside it. */
async function deviceTraffic(
  label: string,
  databaseUrl: string,
  floorUrl: string,
  polledTarget: number,
  ingestTarget: number,
): Promise<void> {
  const service = await startService({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' });
  const compare = (path: string, method: 'GET' | 'POST' = 'GET', body?: string) =>
    againstFloor({ url: `${service.url}${path}`, floorUrl, method, body, connections, durationS: duration });
  const target = (ratio: number) => `≥ ${ratio}× floor`;
  try {
    // A first measurement so that "last" and "state" have something to answer with.
    await fetch(`${service.url}/measurements`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: single });
    log(`${label}: POST /measurements, one measurement`);
    httpRow(`${label}: POST /measurements (1)`, await compare('/measurements', 'POST', single), 1, ingestTarget, target(ingestTarget));
    if (label === 'sqlite') {
      log(`${label}: POST /measurements, batch of 100`);
      httpRow(`${label}: POST /measurements (100)`, await compare('/measurements', 'POST', batch), 100, 10, '≥ 10× floor measurements/s');
    }
    log(`${label}: GET /measurements/1/last`);
    httpRow(`${label}: GET /measurements/{id}/last`, await compare('/measurements/1/last'), 1, polledTarget, target(polledTarget));
    if (label === 'sqlite') {
      log(`${label}: GET /actuators/1/state`);
      httpRow(`${label}: GET /actuators/{id}/state`, await compare('/actuators/1/state'), 1, polledTarget, target(polledTarget));
    }
  } finally {
    await service.stop();
  }
}

async function main(): Promise<void> {
  if (!existsSync('dist/server.js')) throw new Error('dist/server.js is missing: run `npm run build` first (npm run bench does)');
  const started = new Date();
  const folder = temporaryFolder('sensorhub-bench-');
  const work = folder.path;
  // The floor runs for the whole benchmark; every HTTP scenario measures it beside itself.
  const floor = await startFloor();
  try {
    if (!skip.has('http')) await deviceTraffic('sqlite', `sqlite:${join(work, 'http.db')}`, floor.url, 0.6, 0.5);

    if (!skip.has('window')) {
      for (const size of windowSizes) {
        const file = join(work, `window-${size}.db`);
        log(`window: filling ${fmt(size)} rows over 10 sensors`);
        await fillMeasurements(file, size, 10, log);
        const result = await windowScenario(`sqlite:${file}`, connections, duration);
        rows.push({
          scenario: `sqlite: GET /measurements/{id}?time_delta=P1D, ${fmt(size)} rows`,
          rate: `${fmt(result.rps)}/s`,
          floor: '',
          ratio: '',
          p50: `${result.p50} ms`,
          p99: `${result.p99} ms`,
          target: 'p99 flat as rows grow',
          met: '',
        });
        rmSync(file, { force: true });
      }
      // Flat: the p99 on the largest store is within twice the p99 on the smallest (queueing at 64
      // connections makes single p99 figures jumpy; growth with the store would show as a trend).
      const p99s = rows.filter((r) => r.scenario.includes('time_delta')).map((r) => parseFloat(r.p99));
      const flat = p99s.length > 1 && p99s[p99s.length - 1] <= 2 * p99s[0] + 2;
      for (const r of rows) if (r.scenario.includes('time_delta')) r.met = flat ? 'yes' : 'no';
    }

    if (!skip.has('export')) {
      const file = join(work, 'export.db');
      log('export: filling 1,000,000 rows');
      await fillMeasurements(file, 1_000_000, 10, log);
      const result = await exportScenario(`sqlite:${file}`, file);
      rows.push({
        scenario: 'sqlite: GET /measurements/export, 1,000,000 rows',
        rate: `${result.seconds.toFixed(2)} s (sqlite3 CLI ${result.cliSeconds.toFixed(2)} s)`,
        floor: '',
        ratio: `${(result.seconds / result.cliSeconds).toFixed(2)}× CLI`,
        p50: '',
        p99: `peak RSS ${Math.round(result.peakRssMb)} MB`,
        target: '≤ 3× CLI, < 200 MB',
        met: result.seconds <= 3 * result.cliSeconds && result.peakRssMb < 200 ? 'yes' : 'no',
      });
    }

    if (!skip.has('random')) {
      const seconds = await randomScenario(`sqlite:${join(work, 'random.db')}`, 1_000_000);
      rows.push({
        scenario: 'sqlite: POST /Measurement/Random 1,000,000',
        rate: `${seconds.toFixed(2)} s`,
        floor: '',
        ratio: '',
        p50: '',
        p99: '',
        target: '< 10 s',
        met: seconds < 10 ? 'yes' : 'no',
      });
    }

    if (!skip.has('postgres')) {
      const adminUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
      if (await postgresAnswers(adminUrl)) {
        const name = `sensorhub_bench_${Date.now()}`;
        const admin = new pg.Client({ connectionString: adminUrl });
        await admin.connect();
        await admin.query(`CREATE DATABASE ${name}`);
        const url = new URL(adminUrl);
        url.pathname = `/${name}`;
        try {
          await deviceTraffic('postgres', url.toString(), floor.url, 0.3, 0.3);
        } finally {
          await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          await admin.end();
        }
      } else {
        log('postgres: not answering, scenarios skipped');
      }
    }
  } finally {
    await floor.stop();
    folder.remove();
  }

  const header = '| scenario | rate | floor beside it | ratio to floor | p50 | p99 | target | met |\n|---|---|---|---|---|---|---|---|';
  const table = [
    header,
    ...rows.map((r) => `| ${r.scenario} | ${r.rate} | ${r.floor} | ${r.ratio} | ${r.p50} | ${r.p99} | ${r.target} | ${r.met} |`),
  ].join('\n');
  console.log(table);
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node.js ${process.version}`;
  const settings = `${connections} connections, ${duration} s per scenario and ${duration} s of floor beside it in 5 alternating slices each (ratio: the median of the slices' ratios), autocannon`;
  appendFileSync(
    'BENCHMARKS.md',
    `\n## npm run bench — ${started.toISOString()}\n\nCommand: \`npm run bench\` (${settings}${skip.size ? `; BENCH_SKIP=${[...skip].join(',')}` : ''})  \nMachine: ${machine}\n\n${table}\n`,
  );
  log('appended to BENCHMARKS.md');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

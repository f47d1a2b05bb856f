/**
 * `npx tsx bench/measurements.ts`: the measurement scenarios of docs/api.md §2 on both stores, printed
 * as a table (nothing is written to BENCHMARKS.md; copy the table there with the command).
 *
 * For each store (SQLite, and PostgreSQL when it answers) on a fresh database:
 * - POST /measurements, one measurement and batches of 100 (autocannon, 64 connections);
 * - GET /measurements/{id}/last;
 * - GET /measurements/{id}?time_delta=P1D on a store of 1,000,000 rows (1,000 in the last day);
 * - GET /measurements/{id}?max_points=1000 over a year of one sensor (100,000 rows): the dashboard;
 * - GET /measurements/{id} of that whole year, streamed;
 * - GET /measurements/export of 1,000,000 rows: time, first byte, peak RSS of the service,
 *   against the store's own CSV dump (`sqlite3 -csv`, `psql \copy … csv`) of the same rows;
 * - POST /Measurement/Random with 1,000,000 measurements.
 *
 * Environment: BENCH_DURATION (seconds per load scenario, default 5), BENCH_CONNECTIONS (64),
 * BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/test), BENCH_STORES (sqlite,postgres).
 * It builds the service first (the load runs against dist/server.js, as in production).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';

import { load, type LoadResult } from './lib/load.js';
import { ROOT, type Running, startService } from './lib/processes.js';
import { postgresAnswers } from './lib/postgres.js';
import { createBenchSensors } from './lib/sensors.js';
import { temporaryFolder } from './lib/temporary.js';

const duration = Number(process.env.BENCH_DURATION ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 64);
const pgAdminUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const stores = (process.env.BENCH_STORES ?? 'sqlite,postgres').split(',');

const DAY = 24 * 3600_000;
const YEAR = 365 * DAY;
const SENSORS = 10;
const ROWS = 1_000_000;

const table: string[][] = [];
const log = (message: string) => console.error(`[bench] ${message}`);
const fmt = (n: number) => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(2));
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

function loadRow(store: string, scenario: string, result: LoadResult, perRequest = 1): void {
  const rate = result.rps * perRequest;
  const clean = result.errors === 0 && result.non2xx === 0 ? '' : ` (${result.errors} errors, ${result.non2xx} non-2xx)`;
  table.push([
    store,
    scenario,
    `${fmt(rate)}/s${perRequest > 1 ? ' measurements' : ''}${clean}`,
    `p50 ${result.p50} ms, p99 ${result.p99} ms`,
  ]);
  log(`${store}: ${scenario}: ${fmt(rate)}/s, p99 ${result.p99} ms`);
}

function row(store: string, scenario: string, figure: string, detail = ''): void {
  table.push([store, scenario, figure, detail]);
  log(`${store}: ${scenario}: ${figure} ${detail}`);
}

/**
 * The rows of a 1,000,000-row store: sensor 1 + (i mod 10); the last day holds 1,000 rows per
 * sensor, the rest spread over the year before it; values a slow wave.
 */
function* syntheticRows(now: number): Generator<[number, number, number]> {
  const recent = 1000 * SENSORS;
  const older = ROWS - recent;
  for (let i = 0; i < ROWS; i++) {
    const timestamp =
      i < older
        ? now - YEAR + Math.floor((i / older) * (YEAR - DAY))
        : now - DAY + 60_000 + Math.floor(((i - older) / recent) * (DAY - 120_000));
    yield [1 + (i % SENSORS), 20 + Math.sin(i / 1000) * 5, timestamp];
  }
}

/** Creates the sensors (the three defaults and seven more) through the store, then writes the rows straight in. */
async function fill(databaseUrl: string, now: number): Promise<void> {
  await createBenchSensors(databaseUrl, SENSORS);
  if (databaseUrl.startsWith('sqlite:')) {
    const db = new SQLite(databaseUrl.slice('sqlite:'.length));
    const insert = db.prepare('insert into measurements (sensor_id, value, timestamp) values (?, ?, ?)');
    db.transaction(() => {
      for (const r of syntheticRows(now)) insert.run(...r);
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    return;
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    let ids: number[] = [];
    let values: number[] = [];
    let times: number[] = [];
    const flush = async () => {
      await client.query(
        `insert into measurements (sensor_id, value, timestamp)
         select u.id, u.v, timestamptz 'epoch' + u.ms * interval '1 millisecond' from unnest($1::int4[], $2::float8[], $3::int8[]) as u(id, v, ms)`,
        [ids, values, times],
      );
      ids = [];
      values = [];
      times = [];
    };
    for (const [id, value, timestamp] of syntheticRows(now)) {
      ids.push(id);
      values.push(value);
      times.push(timestamp);
      if (ids.length === 50_000) await flush();
    }
    if (ids.length > 0) await flush();
    await client.query('analyze measurements');
  } finally {
    await client.end();
  }
}

/** Reads a whole response, timing the first byte and the end. */
async function download(url: string): Promise<{ firstByteMs: number; totalMs: number; bytes: number; status: number }> {
  const started = performance.now();
  const response = await fetch(url);
  let firstByteMs = 0;
  let bytes = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    if (bytes === 0) firstByteMs = performance.now() - started;
    bytes += chunk.length;
  }
  return { firstByteMs, totalMs: performance.now() - started, bytes, status: response.status };
}

const EXPORT_SQL = (pgStore: boolean) =>
  pgStore
    ? `select m.sensor_id, s.sensor_type, m.value, to_char(m.timestamp at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
         s.threshold_critically_low, s.threshold_low, s.threshold_high, s.threshold_critically_high
       from measurements m join sensors s on s.sensor_id = m.sensor_id order by m.sensor_id, m.timestamp, m.measurement_id`
    : "select m.sensor_id, s.sensor_type, m.value, strftime('%Y-%m-%dT%H:%M:%fZ', m.timestamp / 1000.0, 'unixepoch'), " +
      's.threshold_critically_low, s.threshold_low, s.threshold_high, s.threshold_critically_high ' +
      'from measurements m join sensors s on s.sensor_id = m.sensor_id order by m.sensor_id, m.timestamp, m.measurement_id';

/** The store's own CSV dump of the same rows, to nowhere. */
function nativeDump(databaseUrl: string): { label: string; ms: number } {
  const pgStore = !databaseUrl.startsWith('sqlite:');
  const started = performance.now();
  const result = pgStore
    ? spawnSync('psql', [databaseUrl, '-q', '-c', `\\copy (${EXPORT_SQL(true).replace(/\s+/g, ' ')}) to stdout with csv`], {
        stdio: ['ignore', 'ignore', 'inherit'],
      })
    : spawnSync('sqlite3', ['-csv', databaseUrl.slice('sqlite:'.length), EXPORT_SQL(false)], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error(`${pgStore ? 'psql' : 'sqlite3'} failed`);
  return { label: pgStore ? 'psql \\copy csv' : 'sqlite3 -csv', ms: performance.now() - started };
}

async function withService<T>(databaseUrl: string, work: (service: Running) => Promise<T>): Promise<T> {
  const service = await startService({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' });
  try {
    return await work(service);
  } finally {
    await service.stop();
  }
}

async function scenarios(store: string, database: { url(name: string): Promise<string> }): Promise<void> {
  // Ingest and "last" on an empty store.
  await withService(await database.url('ingest'), async (service) => {
    const one = '{"sensor_id":1,"value":6.4}';
    const batch = JSON.stringify(Array.from({ length: 100 }, (_, i) => ({ sensor_id: 1 + (i % 3), value: 6 + (i % 10) / 10 })));
    const post = (body: string) => load({ url: `${service.url}/measurements`, method: 'POST', body, connections, durationS: duration });
    loadRow(store, 'POST /measurements, one', await post(one));
    loadRow(store, 'POST /measurements, batch of 100', await post(batch), 100);
    loadRow(store, 'GET /measurements/1/last', await load({ url: `${service.url}/measurements/1/last`, connections, durationS: duration }));
  });

  // Reads on a store of 1,000,000 rows.
  const bigUrl = await database.url('big');
  const now = Date.now();
  log(`${store}: filling ${fmt(ROWS)} rows`);
  await fill(bigUrl, now);
  await withService(bigUrl, async (service) => {
    loadRow(
      store,
      `GET /measurements/1?time_delta=P1D, ${fmt(ROWS)}-row store (1,000 rows answered)`,
      await load({ url: `${service.url}/measurements/1?time_delta=P1D`, connections, durationS: duration }),
    );
    const downsampled = await download(`${service.url}/measurements/1?max_points=1000`);
    row(
      store,
      'GET /measurements/1?max_points=1000, a year of 100,000 rows',
      seconds(downsampled.totalMs),
      `${fmt(downsampled.bytes)} bytes`,
    );
    const whole = await download(`${service.url}/measurements/1`);
    row(
      store,
      'GET /measurements/1, a year of 100,000 rows (streamed)',
      seconds(whole.totalMs),
      `first byte ${Math.round(whole.firstByteMs)} ms, ${fmt(whole.bytes)} bytes`,
    );
  });
  // The export in a process of its own, so its peak RSS is the export's.
  await withService(bigUrl, async (service) => {
    const rssBefore = service.peakRssMb();
    const csv = await download(`${service.url}/measurements/export`);
    const native = nativeDump(bigUrl);
    row(
      store,
      `GET /measurements/export, ${fmt(ROWS)} rows`,
      seconds(csv.totalMs),
      `first byte ${Math.round(csv.firstByteMs)} ms, ${fmt(csv.bytes / 2 ** 20)} MB, peak RSS ${Math.round(service.peakRssMb())} MB ` +
        `(${Math.round(rssBefore)} MB before); ${native.label}: ${seconds(native.ms)} (${(csv.totalMs / native.ms).toFixed(2)}×)`,
    );
  });

  await withService(await database.url('random'), async (service) => {
    const started = performance.now();
    const response = await fetch(`${service.url}/Measurement/Random`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ nb_measurements: 1_000_000 }),
    });
    const body = await response.text();
    if (response.status !== 200) throw new Error(`random generation answered ${response.status}: ${body}`);
    row(store, 'POST /Measurement/Random, 1,000,000', seconds(performance.now() - started), body);
  });
}

async function main(): Promise<void> {
  log('building the service');
  execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
    cwd: ROOT,
    stdio: 'inherit',
  });

  if (stores.includes('sqlite')) {
    const folder = temporaryFolder('sensorhub-bench-');
    const work = folder.path;
    try {
      await scenarios('sqlite', { url: async (name) => `sqlite:${join(work, `${name}.db`)}` });
    } finally {
      folder.remove();
    }
  }

  if (stores.includes('postgres')) {
    if (!(await postgresAnswers(pgAdminUrl))) {
      log('postgres: not answering, skipped');
    } else {
      const admin = new pg.Client({ connectionString: pgAdminUrl });
      await admin.connect();
      const created: string[] = [];
      try {
        await scenarios('postgres', {
          async url(name) {
            const db = `sensorhub_bench_${name}_${Date.now()}`;
            await admin.query(`CREATE DATABASE ${db}`);
            created.push(db);
            const url = new URL(pgAdminUrl);
            url.pathname = `/${db}`;
            return url.toString();
          },
        });
      } finally {
        for (const db of created) await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
        await admin.end();
      }
    }
  }

  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node.js ${process.version}`;
  console.log(`Machine: ${machine}; ${connections} connections, ${duration} s per load scenario\n`);
  console.log('| store | scenario | figure | detail |\n|---|---|---|---|');
  for (const r of table) console.log(`| ${r.join(' | ')} |`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

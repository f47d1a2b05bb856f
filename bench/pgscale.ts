/**
 * PostgreSQL at farm scale (docs/api.md §19): a store of `--rows` measurements (10⁸ by default) in a
 * PostgreSQL cluster of the bench's own with the recommended settings (checked), and on it:
 * sustained ingest through the service (`--rate` rows/s for `--minutes`, p50/p99, per-minute rows/s
 * and p99 for drift), a year chart quiet and under that ingest, a day's retention and the dead rows
 * it leaves, ingest latency while 1 M rows are generated beside it, 1 M generated rows with their
 * buckets on a fresh store, and the CSV export of a sensor's year beside `psql \copy` of the same
 * rows. `--before DIR` measures a checkout of the build before (built, with its node_modules) the
 * same way, on a store of the same rows.
 *
 *   npm run bench:pgscale -- --rows 100000000 --minutes 30 --before /tmp/pg-before
 *
 * Small sizes for a check that every figure comes out: `-- --rows 200000 --minutes 0.5 --random 20000`.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type Bucket, bucketStream } from '../src/domain/bucket-fold.js';
import { bucketStart, DAY, KEPT_SIZES } from '../src/domain/bucket-sizes.js';
import { binaryRows, type FieldType } from '../src/store/postgres/binary-copy.js';
import { checkSettings, startCluster } from './lib/pg-cluster.js';
import type * as StoreModule from '../src/store/index.js';
import type * as PartitionsModule from '../src/store/postgres/partitions.js';
import type * as RetentionModule from '../src/history/retention-job.js';
import { ROOT, startService, type Running } from './lib/processes.js';

const { values: flags } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000000' },
    sensors: { type: 'string', default: '32' },
    minutes: { type: 'string', default: '30' },
    rate: { type: 'string', default: '10000' },
    batch: { type: 'string', default: '100' },
    'ingest-sensors': { type: 'string', default: '10000' },
    random: { type: 'string', default: '1000000' },
    before: { type: 'string' },
    data: { type: 'string' },
    'pg-url': { type: 'string' },
    record: { type: 'boolean', default: false },
  },
});
const ROWS = Number(flags.rows);
const YEAR_SENSORS = Number(flags.sensors);
const MINUTES = Number(flags.minutes);
const RATE = Number(flags.rate);
const BATCH = Number(flags.batch);
const INGEST_SENSORS = Number(flags['ingest-sensors']);
const RANDOM = Number(flags.random);
const YEAR = 365 * DAY;

const log = (...args: unknown[]) => console.error(`[pgscale ${new Date().toISOString().slice(11, 19)}]`, ...args);

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
const ms = (v: number) => (Number.isFinite(v) ? `${v.toFixed(v < 10 ? 1 : 0)} ms` : 'n/a');

async function withClient<T>(url: string, work: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** One build under test: its checkout, and the database its store lives in. */
interface Build {
  label: string;
  root: string;
  url: string;
  partitioned: boolean;
}

const BUCKET_TYPES: FieldType[] = ['int4', 'int4', 'int8', 'int8', 'float8', ...Array(4).fill(['float8', 'int8', 'int8']).flat(), 'int8'];

/** A year of one sensor: `count` rows at even steps with a little jitter, a slow random walk. */
function yearSeries(count: number, now: number, seed: number): { ts: Float64Array; values: Float64Array } {
  const ts = new Float64Array(count);
  const values = new Float64Array(count);
  const step = YEAR / count;
  let x = seed;
  const rnd = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  let v = 6;
  for (let i = 0; i < count; i++) {
    ts[i] = Math.floor(now - YEAR + i * step + rnd() * step * 0.5);
    v += (rnd() - 0.5) * 0.05 + (6 - v) * 0.001;
    values[i] = Math.round(v * 100) / 100;
  }
  return { ts, values };
}

async function copyIn(client: pg.Client, statement: string, rows: Iterable<Buffer>): Promise<void> {
  await pipeline(Readable.from(rows), client.query(copyFrom(statement)));
}

/**
 * The store of a build: migrated by the build itself (its store opened once), ingest sensors and
 * year sensors added, each year sensor's rows and their buckets of every size loaded by COPY.
 */
async function buildStore(build: Build, now: number): Promise<{ yearSensors: number[]; ingestSensors: number[]; seconds: number }> {
  const started = performance.now();
  const { openStore } = (await import(`${build.root}/src/store/index.ts`)) as typeof StoreModule;
  const store = await openStore(build.url, { seedDefaults: true });
  await store.close();
  return withClient(build.url, async (c) => {
    const add = async (n: number) =>
      (
        await c.query<{ sensor_id: number }>(
          `insert into sensors (sensor_type, prototype_id, sensor_unit, threshold_critically_low, threshold_low, threshold_high, threshold_critically_high)
           select 'ph', 0, 'pH', 0, 4, 7, 10 from generate_series(1, $1) returning sensor_id`,
          [n],
        )
      ).rows.map((r) => r.sensor_id);
    const yearSensors = await add(YEAR_SENSORS);
    const ingestSensors = await add(INGEST_SENSORS);
    if (build.partitioned) {
      const { makeDayPartitions } = (await import(`${build.root}/src/store/postgres/partitions.ts`)) as typeof PartitionsModule;
      const { Kysely, PostgresDialect } = await import('kysely');
      const pool = new pg.Pool({ connectionString: build.url, max: 2 });
      const db = new Kysely<never>({ dialect: new PostgresDialect({ pool }) });
      const days: number[] = [];
      for (let d = bucketStart(now - YEAR - DAY, DAY); d <= now + 3 * DAY; d += DAY) days.push(d);
      await makeDayPartitions(db as never, days);
      await db.destroy();
    }
    const perSensor = Math.ceil(ROWS / YEAR_SENSORS);
    let nextId =
      Number(
        (
          await c.query<{ v: string }>(`select coalesce(max(measurement_id), 0) + 1 as v from measurements where sensor_id = any($1)`, [
            [0, 1, 2],
          ])
        ).rows[0].v,
      ) + 1000;
    for (const [k, sensorId] of yearSensors.entries()) {
      const { ts, values } = yearSeries(perSensor, now, 7 + k);
      const firstId = nextId;
      nextId += perSensor;
      await copyIn(
        c,
        'copy measurements (measurement_id, sensor_id, value, timestamp) from stdin (format binary)',
        binaryRows(['int8', 'int4', 'float8', 'timestamptz'], perSensor, (i, out) => {
          out[0] = firstId + i;
          out[1] = sensorId;
          out[2] = values[i];
          out[3] = ts[i];
        }),
      );
      const buckets: { size: number; b: Bucket }[] = [];
      const stream = bucketStream(KEPT_SIZES, (size, b) => buckets.push({ size, b }));
      for (let i = 0; i < perSensor; i++) stream.push({ measurement_id: firstId + i, value: values[i], timestamp: ts[i] });
      stream.end();
      await copyIn(
        c,
        'copy history_buckets (sensor_id, size_ms, start_ms, row_count, value_sum, min_value, min_ts, min_id, max_value, max_ts, max_id, first_value, first_ts, first_id, last_value, last_ts, last_id, stamp) from stdin (format binary)',
        binaryRows(BUCKET_TYPES, buckets.length, (i, out) => {
          const { size, b } = buckets[i];
          out.splice(
            0,
            18,
            sensorId,
            size,
            b.start,
            b.count,
            b.sum,
            b.min.value,
            b.min.ts,
            b.min.id,
            b.max.value,
            b.max.ts,
            b.max.id,
            b.first.value,
            b.first.ts,
            b.first.id,
            b.last.value,
            b.last.ts,
            b.last.id,
            1 + i,
          );
        }),
      );
      log(`${build.label}: sensor ${k + 1}/${YEAR_SENSORS} loaded (${((k + 1) * perSensor).toLocaleString('en-US')} rows)`);
    }
    await c.query(`select setval(pg_get_serial_sequence('measurements', 'measurement_id'), $1)`, [nextId]);
    await c.query('vacuum analyze');
    return { yearSensors, ingestSensors, seconds: (performance.now() - started) / 1000 };
  });
}

/** Sequential GETs of `path`; their latencies. */
async function timedGets(url: string, paths: string[], count: number, pauseMs = 0, until?: () => boolean): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; until ? !until() : i < count; i++) {
    const t = performance.now();
    const res = await fetch(url + paths[i % paths.length]);
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${paths[i % paths.length]}: ${res.status}`);
    out.push(performance.now() - t);
    if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
  }
  return out;
}

interface IngestResult {
  latencies: number[];
  perMinute: { rowsPerSecond: number; p99: number }[];
  failed: number;
  maxMs: number;
}

/** Open-loop ingest: `rate` rows/s in batches over the ingest sensors for `seconds`. */
async function ingest(url: string, sensors: number[], rate: number, batch: number, seconds: number): Promise<IngestResult> {
  const latencies: number[] = [];
  const minutes: { rows: number; lat: number[] }[] = [];
  let failed = 0;
  let next = 0;
  const started = performance.now();
  const inFlight = new Set<Promise<void>>();
  const requestsPerSecond = rate / batch;
  let sent = 0;
  while (performance.now() - started < seconds * 1000) {
    const due = Math.floor(((performance.now() - started) / 1000) * requestsPerSecond);
    while (sent < due) {
      sent++;
      const body = [];
      for (let k = 0; k < batch; k++)
        body.push({ sensor_id: sensors[next++ % sensors.length], value: Math.round(Math.random() * 1400) / 100 });
      const t = performance.now();
      const p = fetch(`${url}/measurements`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
        .then(async (res) => {
          await res.arrayBuffer();
          const lat = performance.now() - t;
          const minute = Math.floor((t - started) / 60_000);
          minutes[minute] ??= { rows: 0, lat: [] };
          if (res.ok) {
            latencies.push(lat);
            minutes[minute].rows += batch;
            minutes[minute].lat.push(lat);
          } else failed++;
        })
        .catch(() => {
          failed++;
        })
        .finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  await Promise.all(inFlight);
  const whole = Math.floor(seconds / 60);
  const perMinute = minutes
    .slice(0, Math.max(1, whole))
    .map((m) => ({ rowsPerSecond: (m?.rows ?? 0) / Math.min(60, seconds), p99: percentile(m?.lat ?? [], 99) }));
  return { latencies, perMinute, failed, maxMs: Math.max(0, ...latencies) };
}

interface Figures {
  [name: string]: string;
}

async function measure(build: Build, now: number): Promise<Figures> {
  let yearSensors: number[] = [];
  const f: Figures = {};
  log(`${build.label}: building the store of ${ROWS.toLocaleString('en-US')} rows`);
  const built = await buildStore(build, now);
  yearSensors = built.yearSensors;
  const size = await withClient(build.url, async (c) =>
    Number((await c.query<{ n: string }>('select pg_database_size(current_database()) as n')).rows[0].n),
  );
  f['store: rows, load time, size'] =
    `${ROWS.toLocaleString('en-US')} rows in ${built.seconds.toFixed(0)} s, ${(size / 2 ** 30).toFixed(2)} GiB`;
  const service: Running = await startService({ DATABASE_URL: build.url, DATABASE_POOL_SIZE: '20', LOG_LEVEL: 'warn' }, build.root);
  try {
    const year = built.yearSensors[0];
    const charts = [`/measurements/${year}/aggregate?bucket=1h&time_delta=P365D`, `/measurements/${year}?max_points=1000&time_delta=P365D`];
    await timedGets(service.url, charts, 10);
    const quiet = await timedGets(service.url, charts, 200);
    f['year chart, quiet: p50 / p99'] = `${ms(percentile(quiet, 50))} / ${ms(percentile(quiet, 99))}`;

    log(`${build.label}: ingest ${RATE} rows/s for ${MINUTES} min`);
    let ingesting = true;
    const chartsUnder = timedGets(service.url, charts, 0, 250, () => !ingesting);
    const result = await ingest(service.url, built.ingestSensors, RATE, BATCH, MINUTES * 60);
    ingesting = false;
    const under = await chartsUnder;
    const rowsPerSecond = (result.latencies.length * BATCH) / (MINUTES * 60);
    f['ingest: rows/s (asked)'] = `${rowsPerSecond.toFixed(0)} (${RATE}), ${result.failed} failed`;
    f['ingest: p50 / p99 / max'] =
      `${ms(percentile(result.latencies, 50))} / ${ms(percentile(result.latencies, 99))} / ${ms(result.maxMs)}`;
    const first = result.perMinute[0];
    const last = result.perMinute[result.perMinute.length - 1];
    f['ingest: first → last minute, rows/s and p99'] =
      `${first.rowsPerSecond.toFixed(0)} → ${last.rowsPerSecond.toFixed(0)}; ${ms(first.p99)} → ${ms(last.p99)}`;
    f['year chart under ingest: p50 / p99'] = `${ms(percentile(under, 50))} / ${ms(percentile(under, 99))}`;

    log(`${build.label}: ${RANDOM} generated rows beside ingest`);
    let generating = true;
    const besideResult = (async () => {
      const out: number[] = [];
      while (generating) out.push(...(await ingest(service.url, built.ingestSensors, Math.min(RATE, 1000), 10, 1)).latencies);
      return out;
    })();
    const g0 = performance.now();
    const gen = await fetch(`${service.url}/Measurement/Random`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ nb_measurements: RANDOM, replace: false }),
    });
    await gen.arrayBuffer();
    const genMs = performance.now() - g0;
    generating = false;
    const besideLat = await besideResult;
    f[`ingest beside ${RANDOM.toLocaleString('en-US')} generated rows (replace: false): max wait`] =
      `${ms(Math.max(0, ...besideLat))} (generation ${gen.status}, ${(genMs / 1000).toFixed(1)} s)`;

    log(`${build.label}: export of one sensor's year beside psql \\copy`);
    const e0 = performance.now();
    const exported = await fetch(`${service.url}/measurements/export?sensor_id=${year}`);
    const bytes = (await exported.arrayBuffer()).byteLength;
    const exportS = (performance.now() - e0) / 1000;
    const c0 = performance.now();
    const psql = spawnSync('psql', [
      build.url,
      '-c',
      `\\copy (select m.sensor_id, s.sensor_type, m.value, m.timestamp, s.threshold_critically_low, s.threshold_low, s.threshold_high, s.threshold_critically_high from measurements m join sensors s using (sensor_id) where m.sensor_id = ${year} order by m.timestamp, m.measurement_id) to '/dev/null' with csv header`,
    ]);
    const psqlS = (performance.now() - c0) / 1000;
    if (psql.status !== 0) throw new Error(`psql: ${psql.stderr}`);
    f["export of a sensor's year: service / psql \\copy"] =
      `${exportS.toFixed(2)} s / ${psqlS.toFixed(2)} s = ${(exportS / psqlS).toFixed(2)}× (${(bytes / 2 ** 20).toFixed(0)} MiB)`;
  } finally {
    await service.stop();
  }

  log(`${build.label}: a day's retention`);
  const { openStore } = (await import(`${build.root}/src/store/index.ts`)) as typeof StoreModule;
  const { retentionJob } = (await import(`${build.root}/src/history/retention-job.ts`)) as typeof RetentionModule;
  const store = await openStore(build.url, { seedDefaults: false });
  try {
    const oldest = await withClient(build.url, async (c) =>
      Number(
        (
          await c.query<{ d: string }>(`select min(start_ms) as d from history_buckets where sensor_id = any($1) and size_ms = ${DAY}`, [
            yearSensors,
          ])
        ).rows[0].d,
      ),
    );
    const cutoff = oldest + DAY;
    const quietLog = { info: () => {}, warn: () => {}, error: () => {} };
    const r0 = performance.now();
    const totals = await retentionJob(store, { rawMs: now - cutoff }, () => now, quietLog).runOnce();
    const retentionS = (performance.now() - r0) / 1000;
    await new Promise((r) => setTimeout(r, 1000));
    const dead = await withClient(build.url, async (c) =>
      Number(
        (
          await c.query<{ n: string }>(
            "select coalesce(sum(n_dead_tup), 0) as n from pg_stat_user_tables where relname like 'measurements%'",
          )
        ).rows[0].n,
      ),
    );
    f["a day's retention: time, rows, dead rows left"] = `${retentionS.toFixed(2)} s, ${totals?.raw ?? 0} rows, ${dead} dead`;
  } finally {
    await store.close();
  }
  return f;
}

/** 1 M generated rows with their buckets, on a fresh store of the default sensors. */
async function generated(build: Build): Promise<string> {
  const { openStore } = (await import(`${build.root}/src/store/index.ts`)) as typeof StoreModule;
  await (await openStore(build.url, { seedDefaults: true })).close();
  const service = await startService({ DATABASE_URL: build.url, LOG_LEVEL: 'warn' }, build.root);
  try {
    const times: number[] = [];
    for (let i = 0; i < 2; i++) {
      const t = performance.now();
      const res = await fetch(`${service.url}/Measurement/Random`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ nb_measurements: RANDOM }),
      });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`Random: ${res.status}`);
      times.push((performance.now() - t) / 1000);
    }
    return `first ${times[0].toFixed(2)} s, again ${times[1].toFixed(2)} s`;
  } finally {
    await service.stop();
  }
}

async function main(): Promise<void> {
  const cluster = flags['pg-url'] ? undefined : await startCluster(flags.data);
  const server = flags['pg-url'] ?? cluster!.url('postgres');
  const settings = await checkSettings(server);
  for (const s of settings) if (!s.ok) log(`setting ${s.name}: ${s.shown}, recommended ${s.wanted}`);
  const builds: Build[] = [{ label: 'this build', root: ROOT.replace(/\/$/, ''), url: '', partitioned: true }];
  if (flags.before) builds.push({ label: 'build before', root: flags.before.replace(/\/$/, ''), url: '', partitioned: false });
  const now = Date.now();
  const results: Figures[] = [];
  for (const [i, build] of builds.entries()) {
    const name = `pgscale_${i}_${process.pid}`;
    await withClient(server, (c) => c.query(`create database ${name}`));
    const genName = `${name}_gen`;
    await withClient(server, (c) => c.query(`create database ${genName}`));
    const url = new URL(server);
    url.pathname = `/${name}`;
    build.url = url.toString();
    const figures = await measure(build, now);
    url.pathname = `/${genName}`;
    figures[`${RANDOM.toLocaleString('en-US')} generated rows with buckets (fresh store)`] = await generated({
      ...build,
      url: url.toString(),
    });
    figures['disk of the cluster after'] = cluster ? `${(cluster.diskBytes() / 2 ** 30).toFixed(2)} GiB` : 'n/a';
    results.push(figures);
    await withClient(server, async (c) => {
      await c.query(`drop database ${name} with (force)`);
      await c.query(`drop database ${genName} with (force)`);
    });
  }
  const lines = [
    `### PostgreSQL at farm scale, ${new Date().toISOString().slice(0, 10)} (\`npm run bench:pgscale -- ${process.argv.slice(2).join(' ')}\`)`,
    '',
    `${ROWS.toLocaleString('en-US')} rows over ${YEAR_SENSORS} sensors' year; ingest ${RATE} rows/s in batches of ${BATCH} over ${INGEST_SENSORS} sensors for ${MINUTES} min; settings ${
      settings.every((s) => s.ok)
        ? 'as recommended (checked)'
        : 'NOT all as recommended: ' +
          settings
            .filter((s) => !s.ok)
            .map((s) => `${s.name}=${s.shown}`)
            .join(', ')
    }; load average ${spawnSync('cat', ['/proc/loadavg']).stdout.toString().split(' ').slice(0, 3).join(' ')}`,
    '',
    `| figure | ${builds.map((b) => b.label).join(' | ')} |`,
    `|---|${builds.map(() => '---').join('|')}|`,
    ...Object.keys(results[0]).map((k) => `| ${k} | ${results.map((r) => r[k] ?? '').join(' | ')} |`),
    '',
  ];
  console.log(lines.join('\n'));
  if (flags.record) appendFileSync(new URL('../BENCHMARKS.md', import.meta.url), '\n' + lines.join('\n'));
  cluster?.stop();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);

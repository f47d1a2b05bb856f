/**
 * Builds side by side: `node --import tsx bench/compare.ts <checkout>…` drives the built service of
 * each checkout (its dist/, built beforehand), run as that checkout's systemd unit and `npm start`
 * run it, and the floors with the same requests, in rounds: each round takes one slice of the
 * floor and one of every build, the builds' order turning from round to round, so that all of
 * them see the same drift in this machine's speed. Per build it prints the median of the rounds'
 * ratios to the floor (and their range), the service's CPU time per request (from /proc) and the
 * load average before and after. Nothing is appended to BENCHMARKS.md.
 *
 * Two floors: ingest and the polled reads are compared with a plain node:http server answering a
 * fixed small body (bench/floor.ts); window reads and the export with the store floor
 * (bench/store-floor.ts: node:http and better-sqlite3 reading the same rows and writing the same
 * text the naive way). Each build writes into a fresh SQLite store of its own and reads from its
 * own copy of one store holding sensor 1 with 1,000 readings in the last day and sensor 2 with
 * 10,000 (the export: all 11,000).
 *
 * Options (environment): BENCH_SCENARIOS (comma-separated, of: batch, single, last, state,
 * window1k, window10k, export; default all), BENCH_ROUNDS (default 5), BENCH_SLICE (seconds per
 * slice, default 3), BENCH_CONNECTIONS (default 64; at most 16 for the 1,000-row window, 4 for the
 * 10,000-row one, 1 for the export: their answers are long).
 */
import { copyFileSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { basename, join, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { load, type LoadResult } from './lib/load.js';
import { type Running, startFloor, startService, startStoreFloor } from './lib/processes.js';
import { createBenchSensors } from './lib/sensors.js';
import { temporaryFolder } from './lib/temporary.js';

const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const sliceS = Number(process.env.BENCH_SLICE ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 64);
const ALL = ['batch', 'single', 'last', 'state', 'window1k', 'window10k', 'export'];
const scenarioNames = (process.env.BENCH_SCENARIOS ?? ALL.join(',')).split(',').filter(Boolean);

interface Scenario {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  /** Measurements a request carries (the rate is multiplied by it). */
  unit: number;
  /** Which floor, and which of the build's stores. */
  against: 'http' | 'store';
  connections: number;
}

const scenarios: Record<string, Scenario> = {
  single: { method: 'POST', path: '/measurements', body: '{"sensor_id":1,"value":6.4}', unit: 1, against: 'http', connections },
  batch: {
    method: 'POST',
    path: '/measurements',
    body: JSON.stringify(Array.from({ length: 100 }, (_, i) => ({ sensor_id: 1 + (i % 3), value: 6 + (i % 10) / 10 }))),
    unit: 100,
    against: 'http',
    connections,
  },
  last: { method: 'GET', path: '/measurements/1/last', unit: 1, against: 'http', connections },
  state: { method: 'GET', path: '/actuators/1/state', unit: 1, against: 'http', connections },
  window1k: { method: 'GET', path: '/measurements/1?time_delta=P1D', unit: 1, against: 'store', connections: Math.min(connections, 16) },
  window10k: { method: 'GET', path: '/measurements/2?time_delta=P1D', unit: 1, against: 'store', connections: Math.min(connections, 4) },
  // One at a time: exports side by side only share the CPU, and one slower than a slice would count as none.
  export: { method: 'GET', path: '/measurements/export', unit: 1, against: 'store', connections: 1 },
};

const DAY_MS = 24 * 3600 * 1000;

/** The read store: sensor 1 with 1,000 readings in the last day, sensor 2 with 10,000, sensor 3 with none. */
async function fillReadStore(file: string): Promise<void> {
  await createBenchSensors(`sqlite:${file}`, 3);
  const db = new SQLite(file);
  const insert = db.prepare('insert into measurements (sensor_id, value, timestamp) values (?, ?, ?)');
  const now = Date.now();
  db.transaction(() => {
    for (const [sensorId, count] of [
      [1, 1_000],
      [2, 10_000],
    ]) {
      // Values of every kind of text: integers, one to seventeen digits.
      for (let i = 0; i < count; i++)
        insert.run(sensorId, 20 + Math.sin(i / 100) * 5, now - DAY_MS + 60_000 + Math.floor((i / count) * (DAY_MS - 120_000)));
    }
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

/** User and system CPU time of a process so far, in microseconds (Linux, 100 ticks a second). */
function cpuMicros(pid: number): { user: number; system: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { user: Number(fields[11]) * 10_000, system: Number(fields[12]) * 10_000 };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const loads = () =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');

interface Slice {
  result: LoadResult;
  /** The service's user and system CPU time per request, and the load generator's (this process), in µs. */
  user: number;
  system: number;
  generator: number;
}

async function slice(target: Running, scenario: Scenario, durationS: number): Promise<Slice> {
  const pid = target.child.pid!;
  const before = cpuMicros(pid);
  const generatorBefore = process.cpuUsage();
  const result = await load({
    url: `${target.url}${scenario.path}`,
    method: scenario.method,
    body: scenario.body,
    connections: scenario.connections,
    durationS,
  });
  const generator = process.cpuUsage(generatorBefore);
  const after = cpuMicros(pid);
  const n = Math.max(1, result.total);
  return {
    result,
    user: (after.user - before.user) / n,
    system: (after.system - before.system) / n,
    generator: (generator.user + generator.system) / n,
  };
}

async function main(): Promise<void> {
  const checkouts = process.argv.slice(2).map((path) => resolve(path));
  if (checkouts.length === 0) throw new Error('usage: node --import tsx bench/compare.ts <checkout>…');
  const folder = temporaryFolder('sensorhub-compare-');
  const seed = join(folder.path, 'read.db');
  await fillReadStore(seed);
  const copyOf = (name: string) => {
    const file = join(folder.path, name);
    copyFileSync(seed, file);
    return file;
  };
  const floors = { http: await startFloor(), store: await startStoreFloor(copyOf('store-floor.db')) };
  const builds = await Promise.all(
    checkouts.map(async (root, i) => ({
      label: `${basename(root)} (${root})`,
      services: {
        http: await startService({ DATABASE_URL: `sqlite:${join(folder.path, `ingest-${i}.db`)}`, LOG_LEVEL: 'warn' }, root),
        store: await startService({ DATABASE_URL: `sqlite:${copyOf(`read-${i}.db`)}`, LOG_LEVEL: 'warn' }, root),
      },
    })),
  );
  try {
    for (const name of scenarioNames) {
      const scenario = scenarios[name];
      if (!scenario) throw new Error(`unknown scenario ${name} (known: ${ALL.join(', ')})`);
      const floor = floors[scenario.against];
      const serviceOf = (i: number) => builds[i].services[scenario.against];
      const loadBefore = loads();
      // A short warm-up of each, not counted: the first requests compile the code paths.
      await slice(floor, scenario, 1);
      for (let i = 0; i < builds.length; i++) await slice(serviceOf(i), scenario, 1);
      const floorSlices: Slice[] = [];
      const buildSlices: Slice[][] = builds.map(() => []);
      for (let round = 0; round < rounds; round++) {
        floorSlices.push(await slice(floor, scenario, sliceS));
        for (let k = 0; k < builds.length; k++) {
          const i = (k + round) % builds.length;
          buildSlices[i].push(await slice(serviceOf(i), scenario, sliceS));
        }
      }
      const { unit } = scenario;
      console.log(
        `\n${name}: ${scenario.method} ${scenario.path} (${unit} per request), ${scenario.connections} connections, ` +
          `${rounds} rounds of ${sliceS} s, load average ${loadBefore} → ${loads()}`,
      );
      console.log(`${scenario.against} floor: ${Math.round(median(floorSlices.map((s) => s.result.rps)))}/s (median of the slices)`);
      builds.forEach((build, i) => {
        const ratios = buildSlices[i].map((s, round) => (s.result.rps * unit) / floorSlices[round].result.rps);
        const fmt = (n: number) => `${n.toFixed(2)}×`;
        const micros = (pick: (s: Slice) => number) => Math.round(median(buildSlices[i].map(pick)));
        console.log(
          `${build.label}: ${fmt(median(ratios))} (${fmt(Math.min(...ratios))}–${fmt(Math.max(...ratios))}; rounds ${ratios.map(fmt).join(' ')}), ` +
            `${Math.round(median(buildSlices[i].map((s) => s.result.rps)))}/s, ` +
            `service CPU ${micros((s) => s.user + s.system)} µs/request (user ${micros((s) => s.user)}, system ${micros((s) => s.system)}), ` +
            `generator ${micros((s) => s.generator)} µs/request, ` +
            `p99 ${Math.max(...buildSlices[i].map((s) => s.result.p99))} ms, ` +
            `errors ${buildSlices[i].reduce((n, s) => n + s.result.errors + s.result.non2xx, 0)}`,
        );
      });
    }
  } finally {
    for (const build of builds) for (const service of Object.values(build.services)) await service.stop();
    for (const floor of Object.values(floors)) await floor.stop();
    folder.remove();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

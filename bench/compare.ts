/**
 * Builds side by side: `node --import tsx bench/compare.ts <checkout>…` drives the built service of
 * each checkout (its dist/, built beforehand, each on a fresh SQLite store of its own) and the
 * node:http floor with the same ingest requests, in rounds: each round takes one slice of the
 * floor and one of every build, the builds' order turning from round to round, so that all of
 * them see the same drift in this machine's speed. Per build it prints the median of the rounds'
 * ratios to the floor (and their range), the service's CPU time per request (from /proc) and the
 * load average before and after. Nothing is appended to BENCHMARKS.md.
 *
 * Options (environment): BENCH_SCENARIOS (comma-separated: batch, single; default both),
 * BENCH_ROUNDS (default 5), BENCH_SLICE (seconds per slice, default 3), BENCH_CONNECTIONS
 * (default 64).
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { load, type LoadResult } from './lib/load.js';
import { type Running, startFloor, startService } from './lib/processes.js';
import { temporaryFolder } from './lib/temporary.js';

const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const sliceS = Number(process.env.BENCH_SLICE ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 64);
const scenarioNames = (process.env.BENCH_SCENARIOS ?? 'batch,single').split(',').filter(Boolean);

const scenarios: Record<string, { body: string; unit: number }> = {
  single: { body: '{"sensor_id":1,"value":6.4}', unit: 1 },
  batch: {
    body: JSON.stringify(Array.from({ length: 100 }, (_, i) => ({ sensor_id: 1 + (i % 3), value: 6 + (i % 10) / 10 }))),
    unit: 100,
  },
};

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

async function slice(target: Running, body: string, durationS: number): Promise<Slice> {
  const pid = target.child.pid!;
  const before = cpuMicros(pid);
  const generatorBefore = process.cpuUsage();
  const result = await load({ url: `${target.url}/measurements`, method: 'POST', body, connections, durationS });
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
  const floor = await startFloor();
  const builds = await Promise.all(
    checkouts.map(async (root, i) => ({
      label: `${basename(root)} (${root})`,
      service: await startService({ DATABASE_URL: `sqlite:${join(folder.path, `build-${i}.db`)}`, LOG_LEVEL: 'warn' }, root),
    })),
  );
  try {
    for (const name of scenarioNames) {
      const { body, unit } = scenarios[name];
      const loadBefore = loads();
      for (const target of [floor, ...builds.map((b) => b.service)]) await slice(target, body, 1);
      const floorSlices: Slice[] = [];
      const buildSlices: Slice[][] = builds.map(() => []);
      for (let round = 0; round < rounds; round++) {
        floorSlices.push(await slice(floor, body, sliceS));
        for (let k = 0; k < builds.length; k++) {
          const i = (k + round) % builds.length;
          buildSlices[i].push(await slice(builds[i].service, body, sliceS));
        }
      }
      console.log(`\n${name} (${unit} per request), ${rounds} rounds of ${sliceS} s, load average ${loadBefore} → ${loads()}`);
      console.log(`floor: ${Math.round(median(floorSlices.map((s) => s.result.rps)))}/s (median of the slices)`);
      builds.forEach((build, i) => {
        const ratios = buildSlices[i].map((s, round) => (s.result.rps * unit) / floorSlices[round].result.rps);
        const fmt = (n: number) => `${n.toFixed(2)}×`;
        const micros = (pick: (s: Slice) => number) => Math.round(median(buildSlices[i].map(pick)));
        console.log(
          `${build.label}: ${fmt(median(ratios))} (${fmt(Math.min(...ratios))}–${fmt(Math.max(...ratios))}; rounds ${ratios.map(fmt).join(' ')}), ` +
            `service CPU ${micros((s) => s.user + s.system)} µs/request (user ${micros((s) => s.user)}, system ${micros((s) => s.system)}), ` +
            `generator ${micros((s) => s.generator)} µs/request, ` +
            `p99 ${Math.max(...buildSlices[i].map((s) => s.result.p99))} ms, ` +
            `errors ${buildSlices[i].reduce((n, s) => n + s.result.errors + s.result.non2xx, 0)}`,
        );
      });
    }
  } finally {
    for (const build of builds) await build.service.stop();
    await floor.stop();
    folder.remove();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

/**
 * `npm run build && node --import tsx bench/events.ts`: live events under load, on SQLite.
 *
 * - Fan-out: EVENTS_STREAMS (1,000) streams on one sensor while EVENTS_RATE (200) measurements/s
 *   are posted for EVENTS_DURATION (10) s; the latency from each POST's answer to the event at
 *   each stream, p50/p99, beside the same run against a floor (bench/lib/sse-floor.ts: a bare
 *   node:http server that writes each POST to every stream).
 * - Ingest with idle streams: POST /measurements driven by autocannon with no stream open, then
 *   with EVENTS_STREAMS idle streams (subscribed to another sensor); the rate lost.
 * - Memory: the service's resident memory before and after EVENTS_IDLE (10,000) idle streams.
 *
 * The latency is timed on EVENTS_TIMED (100) of the streams, spread over the fan-out order.
 * It prints a Markdown table (append it to BENCHMARKS.md by hand, with the machine's state).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { get, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { load } from './lib/load.js';
import { ROOT, startService } from './lib/processes.js';

const STREAMS = Number(process.env.EVENTS_STREAMS ?? 1000);
const RATE = Number(process.env.EVENTS_RATE ?? 200);
const DURATION_S = Number(process.env.EVENTS_DURATION ?? 10);
const IDLE = Number(process.env.EVENTS_IDLE ?? 10_000);
/**
 * Streams whose events are timed, spread evenly over the order the service writes them in; the
 * others are read and discarded (one client process cannot parse them all).
 */
const TIMED = Math.min(STREAMS, Number(process.env.EVENTS_TIMED ?? 100));
const TIMED_EVERY = Math.floor(STREAMS / TIMED);
const timedSlot = (index: number) => (index % TIMED_EVERY === 0 ? index / TIMED_EVERY : -1);

const log = (message: string) => console.error(`[bench:events] ${message}`);
const percentile = (sorted: Float64Array, p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** Opens `count` event streams (a connection each), a few hundred at a time; resolves once all answered. */
async function openStreams(url: string, count: number, onData?: (index: number, chunk: string) => void): Promise<IncomingMessage[]> {
  const open: IncomingMessage[] = [];
  for (let first = 0; first < count; first += 200) {
    const batch = Array.from({ length: Math.min(200, count - first) }, (_, i) => {
      const index = first + i;
      return new Promise<IncomingMessage>((resolve, reject) => {
        const request = get(url, { agent: false }, (response) => {
          if (response.statusCode !== 200) reject(new Error(`stream ${index}: status ${response.statusCode}`));
          response.setEncoding('latin1');
          const slot = timedSlot(index);
          if (onData && slot >= 0 && slot < TIMED) response.on('data', (chunk: string) => onData(slot, chunk));
          else response.resume();
          resolve(response);
        });
        request.on('error', reject);
      });
    });
    open.push(...(await Promise.all(batch)));
  }
  return open;
}

const closeAll = (streams: IncomingMessage[]) => {
  for (const stream of streams) stream.destroy();
};

/** Posts RATE measurements/s for DURATION_S; latency = event arrival at a stream − the POST's answer. */
async function fanOut(
  base: string,
  streamPath: string,
  postPath: string,
): Promise<{ p50: number; p99: number; samples: number; missing: number; failedPosts: number }> {
  const posts = RATE * DURATION_S;
  const answeredAt = new Float64Array(posts).fill(Number.NaN);
  const arrivedAt = new Float64Array(posts * TIMED).fill(Number.NaN);
  const VALUE = /"value":(\d+)/g;
  const streams = await openStreams(`${base}${streamPath}`, STREAMS, (index, chunk) => {
    const at = performance.now();
    for (const match of chunk.matchAll(VALUE)) {
      const value = Number(match[1]);
      if (value < posts) arrivedAt[index * posts + value] = at;
    }
  });
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  let failedPosts = 0;
  for (let k = 0; k < posts; k++) {
    const due = started + (k * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    inFlight.push(
      fetch(`${base}${postPath}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ sensor_id: 1, value: k }),
      }).then(
        async (res) => {
          await res.arrayBuffer();
          answeredAt[k] = performance.now();
        },
        // On a starved client a POST can fail to connect: counted, not fatal.
        () => {
          failedPosts++;
        },
      ),
    );
  }
  await Promise.all(inFlight);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  closeAll(streams);
  const latencies: number[] = [];
  let missing = 0;
  for (let s = 0; s < TIMED; s++) {
    for (let k = 0; k < posts; k++) {
      const arrived = arrivedAt[s * posts + k];
      if (Number.isNaN(answeredAt[k])) continue;
      if (Number.isNaN(arrived)) missing++;
      // An event can arrive before its POST's answer is read: that is no delay at all.
      else latencies.push(Math.max(0, arrived - answeredAt[k]));
    }
  }
  const sorted = Float64Array.from(latencies).sort();
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), samples: sorted.length, missing, failedPosts };
}

async function startSseFloor(): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/lib/sse-floor.ts'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve) =>
    createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line).port)),
  );
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'sensorhub-bench-events-'));
  const env = {
    DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`,
    HTTP_MAX_CONNECTIONS: '50000',
    // Every stream of the bench comes from one address.
    EVENTS_MAX_STREAMS: '25000',
    EVENTS_MAX_STREAMS_PER_CLIENT: '25000',
    LOG_LEVEL: 'warn',
  };
  const rows: string[] = [];
  try {
    log(`fan-out: ${STREAMS} streams, ${RATE} measurements/s for ${DURATION_S} s — floor first`);
    const floor = await startSseFloor();
    const floorRun = await fanOut(floor.url, '/', '/').finally(() => floor.stop());
    const service = await startService(env);
    const serviceRun = await fanOut(service.url, '/events?sensor_id=1&types=measurements', '/measurements');
    rows.push(
      `| fan-out, ${STREAMS} streams × ${RATE}/s | p50 ${serviceRun.p50.toFixed(1)} ms, p99 ${serviceRun.p99.toFixed(1)} ms (${serviceRun.samples.toLocaleString('en-US')} deliveries, ${serviceRun.missing} missing, ${serviceRun.failedPosts} POSTs failed) | p50 ${floorRun.p50.toFixed(1)} ms, p99 ${floorRun.p99.toFixed(1)} ms (${floorRun.failedPosts} POSTs failed) | p99 < 50 ms | ${serviceRun.p99 < 50 && serviceRun.missing === 0 ? 'yes' : 'no'} |`,
    );

    log('ingest: POST /measurements without streams, then with idle streams');
    const body = JSON.stringify({ sensor_id: 1, value: 6.5 });
    const alone = await load({ url: `${service.url}/measurements`, method: 'POST', body, connections: 64, durationS: DURATION_S });
    const idle = await openStreams(`${service.url}/events?sensor_id=2`, STREAMS);
    const beside = await load({ url: `${service.url}/measurements`, method: 'POST', body, connections: 64, durationS: DURATION_S });
    closeAll(idle);
    const lost = 1 - beside.rps / alone.rps;
    rows.push(
      `| ingest beside ${STREAMS} idle streams | ${Math.round(beside.rps).toLocaleString('en-US')}/s (p99 ${beside.p99} ms) | ${Math.round(alone.rps).toLocaleString('en-US')}/s without streams (p99 ${alone.p99} ms) | lose ≤ 5 % | ${(lost * 100).toFixed(1)} % lost: ${lost <= 0.05 ? 'yes' : 'no'} |`,
    );
    await service.stop();

    log(`memory: ${IDLE} idle streams`);
    const fresh = await startService(env);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const before = rssMb(fresh.child.pid!);
    const many = await openStreams(`${fresh.url}/events?sensor_id=2`, IDLE);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const after = rssMb(fresh.child.pid!);
    closeAll(many);
    await fresh.stop();
    rows.push(
      `| ${IDLE.toLocaleString('en-US')} idle streams | ${after.toFixed(0)} MB resident (${(after - before).toFixed(0)} MB for the streams, ${(((after - before) * 1024) / IDLE).toFixed(1)} KB each) | ${before.toFixed(0)} MB with none | < 300 MB | ${after < 300 ? 'yes' : 'no'} |`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log('| scenario | service | floor / baseline | target | met |\n|---|---|---|---|---|');
  console.log(rows.join('\n'));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);

/**
 * `npm run bench:footprint`: what the service costs a small board (API.md §16 "Small"), each figure
 * beside its floor measured in the same run:
 *
 * - ready time: spawn → the first 200 from /healthz, the median of `--starts` (5) starts on a fresh
 *   SQLite store; floor: a bare `node:http` server spawned the same way;
 * - idle RSS after start (a few seconds after ready); floor: a bare `node -e` that does nothing;
 * - RSS 5 s after `--minutes` (3) of 10 sensors posting one reading a second each (`--hours 1` for
 *   the full figure), the idle RSS 30 s after (past V8's memory reducer), and the peak RSS over
 *   that run;
 * - CPU at 100 readings/s over HTTP (10 sensors × 10/s, one reading a request) and over MQTT (QoS 1
 *   messages through a Mosquitto of the run's own, which must be on PATH), as process CPU time per
 *   second of load; floors: a bare `node:http` server taking the same requests, and a bare MQTT.js
 *   subscriber (bench/lib/mqtt-floor.ts) taking the same messages.
 *
 * The service runs as the systemd unit runs it (`sensorhub serve`): on SQLite with the dashboard, history and alerts
 * on (the defaults), with the unit's NODE_OPTIONS and MALLOC_* settings (deploy/sensorhub.service)
 * unless BENCH_NODE_OPTIONS says otherwise or BENCH_MALLOC is empty (glibc's defaults), given to
 * the floors too. Prints a Markdown table and appends it to BENCHMARKS.md: a dated
 * section in the log, and the "Footprint" table among the current figures.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { connectAsync } from 'mqtt';
import { openStore } from '../src/store/index.js';
import { startBroker } from '../test/helpers/mosquitto.js';
import { asDeployed } from './lib/as-deployed.js';
import { ROOT } from './lib/processes.js';
import { createBenchSensors } from './lib/sensors.js';
import { stopOnExit, temporaryFolder } from './lib/temporary.js';

const log = (message: string) => console.error(`[bench:footprint] ${message}`);

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  if (at < 0) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} takes a positive number (got ${process.argv[at + 1]})`);
  return value;
}

const HOURS = process.argv.includes('--hours') ? option('hours', 1) : undefined;
const LOAD_SECONDS = HOURS !== undefined ? HOURS * 3600 : option('minutes', 3) * 60;
const STARTS = option('starts', 5);
const CPU_SECONDS = option('cpu-seconds', 20);
const SENSORS = 10;
/** After ready, what an idle process is given to settle (timers, first collections) before its RSS is read. */
const SETTLE_MS = 5000;
/**
 * After the load, how long the service is left idle before its idle RSS is read: past V8's memory
 * reducer, which starts 8 s after the allocation rate drops and shrinks the heap the load grew.
 */
const IDLE_AFTER_LOAD_MS = 30_000;

const DEPLOYED = asDeployed(ROOT);
const NODE_OPTIONS = (process.env.BENCH_NODE_OPTIONS ?? DEPLOYED.nodeArgs.join(' ')).trim();
const NODE_ARGS = NODE_OPTIONS.split(/\s+/).filter(Boolean);
/** glibc's malloc settings as the unit sets them (`BENCH_MALLOC=` for glibc's defaults), for the floors too. */
const MALLOC_ENV: Record<string, string> = process.env.BENCH_MALLOC === '' ? {} : DEPLOYED.env;
const MALLOC_TEXT =
  Object.entries(MALLOC_ENV)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ') || '(glibc defaults)';

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function status(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(text)?.[1] ?? NaN) / 1024;
}
const rssMb = (child: ChildProcess) => status(child.pid!, 'VmRSS');
const peakMb = (child: ChildProcess) => status(child.pid!, 'VmHWM');

/** User + system CPU time of a process so far, in seconds. */
function cpuSeconds(child: ChildProcess): number {
  const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of stat(5), counted from the state (field 3) here.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

interface Started {
  child: ChildProcess;
  url: string;
  readyMs: number;
}

/** Spawns `node <args>` listening on `port`; resolves once `url` answers 200, with the time that took. */
async function spawnUntilReady(args: string[], env: Record<string, string>, port: number, path: string): Promise<Started> {
  const started = performance.now();
  const child = stopOnExit(
    spawn(process.execPath, [...NODE_ARGS, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...MALLOC_ENV, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'inherit'],
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`node ${args.join(' ')} exited with ${child.exitCode} before it answered`);
    if (await answers(url + path)) return { child, url, readyMs: performance.now() - started };
    await sleep(10);
  }
}

/** A port free right now (the machine is shared: never a guessed one). */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  return port;
}

const FLOOR_HTTP = `const body = Buffer.from('{"status":"ok"}');
require('node:http').createServer((req, res) => { req.resume(); req.on('end', () => { res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }); res.end(body); }); }).listen(Number(process.env.PORT), '127.0.0.1');`;

const startFloorHttp = async () => spawnUntilReady(['-e', FLOOR_HTTP], {}, await freePort(), '/');

async function startService(folder: string, name: string, env: Record<string, string> = {}): Promise<Started> {
  return spawnUntilReady(
    ['dist/cli/sensorhub.js', 'serve'],
    { DATABASE_URL: `sqlite:${join(folder, `${name}.db`)}`, ...env },
    await freePort(),
    '/healthz',
  );
}

/** RSS of a bare `node -e` that does nothing, with the same options. */
async function bareNodeRss(): Promise<number> {
  const child = stopOnExit(
    spawn(process.execPath, [...NODE_ARGS, '-e', 'setInterval(() => {}, 1000)'], {
      stdio: 'ignore',
      env: { ...process.env, ...MALLOC_ENV },
    }),
  );
  await sleep(SETTLE_MS);
  const rss = rssMb(child);
  await stop(child);
  return rss;
}

/** Sensor ids of the bench prototype (0), made in the store before the service opens it. */
async function benchSensors(databaseUrl: string): Promise<number[]> {
  await createBenchSensors(databaseUrl, SENSORS);
  const store = await openStore(databaseUrl);
  try {
    return (await store.sensors.listByPrototype(0)).slice(0, SENSORS).map((sensor) => sensor.sensor_id);
  } finally {
    await store.close();
  }
}

/** Runs `send` `perSecond` times a second, evenly, for `seconds`; resolves when all have answered. */
async function paced(perSecond: number, seconds: number, send: (i: number) => Promise<unknown>): Promise<number> {
  const total = Math.round(perSecond * seconds);
  const started = performance.now();
  const inFlight: Promise<unknown>[] = [];
  let failures = 0;
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    inFlight.push(send(i).catch(() => (failures += 1)));
    if (inFlight.length >= 1000) await Promise.all(inFlight.splice(0));
  }
  await Promise.all(inFlight);
  return failures;
}

const postReading = (url: string, sensor: number, value: number) =>
  fetch(`${url}/measurements`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ sensor_id: sensor, value }),
  }).then(async (response) => {
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`POST /measurements answered ${response.status}`);
  });

/** CPU seconds per second of a process while `load` runs. */
async function cpuDuring(child: ChildProcess, load: () => Promise<unknown>): Promise<number> {
  const cpu = cpuSeconds(child);
  const started = performance.now();
  await load();
  return (cpuSeconds(child) - cpu) / ((performance.now() - started) / 1000);
}

async function main(): Promise<void> {
  const folder = temporaryFolder('sensorhub-bench-footprint-');
  log(`node options: ${NODE_OPTIONS || '(none)'}; malloc ${MALLOC_TEXT}; load ${LOAD_SECONDS} s; ${STARTS} starts`);

  // Floors first, on a quiet machine.
  const bareRss = await bareNodeRss();
  const floorReady: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    const floor = await startFloorHttp();
    floorReady.push(floor.readyMs);
    await stop(floor.child);
  }

  // Ready time and idle RSS: fresh stores, so every start migrates and seeds as a first start does.
  const ready: number[] = [];
  const idle: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    const service = await startService(folder.path, `start-${i}`);
    ready.push(service.readyMs);
    await sleep(SETTLE_MS);
    idle.push(rssMb(service.child));
    await stop(service.child);
  }
  log(`ready ${ready.map((ms) => Math.round(ms)).join(', ')} ms; idle RSS ${idle.map((mb) => mb.toFixed(1)).join(', ')} MB`);

  // Sustained load: 10 sensors at 1 Hz each.
  const loadUrl = `sqlite:${join(folder.path, 'load.db')}`;
  const sensors = await benchSensors(loadUrl);
  const service = await startService(folder.path, 'load');
  await sleep(SETTLE_MS);
  const idleBeforeLoad = rssMb(service.child);
  let highest = idleBeforeLoad;
  const watch = setInterval(() => (highest = Math.max(highest, rssMb(service.child))), 1000);
  const failed = await paced(SENSORS, LOAD_SECONDS, (i) => postReading(service.url, sensors[i % SENSORS], 20 + (i % 50) / 10));
  clearInterval(watch);
  await sleep(SETTLE_MS);
  const afterLoad = rssMb(service.child);
  await sleep(IDLE_AFTER_LOAD_MS - SETTLE_MS);
  const idleAfterLoad = rssMb(service.child);
  const peak = peakMb(service.child);
  log(
    `after ${LOAD_SECONDS} s at ${SENSORS}/s: RSS ${afterLoad.toFixed(1)} MB, idle 30 s later ${idleAfterLoad.toFixed(1)} MB (highest sampled ${highest.toFixed(1)}, peak ${peak.toFixed(1)}); ${failed} failed`,
  );
  if (failed > 0) throw new Error(`${failed} of the readings posted under load failed`);

  // CPU at 100 readings/s over HTTP, the floor taking the same requests.
  let httpFailed = 0;
  const httpCpu = await cpuDuring(service.child, async () => {
    httpFailed = await paced(100, CPU_SECONDS, (i) => postReading(service.url, sensors[i % SENSORS], 20 + (i % 50) / 10));
  });
  if (httpFailed > 0) throw new Error(`${httpFailed} of the readings posted at 100/s failed`);
  await stop(service.child);
  const floorHttp = await startFloorHttp();
  const floorHttpCpu = await cpuDuring(floorHttp.child, () => paced(100, CPU_SECONDS, (i) => postReading(floorHttp.url, i, i)));
  await stop(floorHttp.child);
  log(`CPU at 100/s over HTTP: service ${(httpCpu * 100).toFixed(1)} %, floor ${(floorHttpCpu * 100).toFixed(1)} %`);

  // CPU at 100 readings/s over MQTT through a broker of the run's own.
  const broker = await startBroker();
  const prefix = `bench-footprint-${process.pid}`;
  const mqttService = await startService(folder.path, 'load', {
    MQTT_URL: broker.url,
    MQTT_TOPIC_PREFIX: prefix,
    MQTT_CLIENT_ID: `${prefix}-service`,
    MQTT_HA_DISCOVERY: 'false',
  });
  while (((await (await fetch(`${mqttService.url}/healthz`)).json()) as { mqtt?: string }).mqtt !== 'connected') await sleep(100);
  const floorMqtt = stopOnExit(
    spawn(process.execPath, [...NODE_ARGS, '--import', 'tsx', 'bench/lib/mqtt-floor.ts', broker.url, `${prefix}-floor`, '1e12'], {
      cwd: ROOT,
      env: { ...process.env, ...MALLOC_ENV },
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  await new Promise<void>((resolve) => createInterface({ input: floorMqtt.stdout! }).once('line', () => resolve()));
  const publisher = await connectAsync(broker.url, { protocolVersion: 5, clientId: `${prefix}-publisher`, reconnectPeriod: 0 });
  const publishAt = (topicPrefix: string) => (i: number) =>
    publisher.publishAsync(`${topicPrefix}/sensors/${sensors[i % SENSORS]}/measurements`, String(20 + (i % 50) / 10), { qos: 1 });
  const storedBefore = await mqttStored(mqttService.url);
  const mqttCpu = await cpuDuring(mqttService.child, async () => {
    await paced(100, CPU_SECONDS, publishAt(prefix));
    const deadline = performance.now() + 60_000;
    while ((await mqttStored(mqttService.url)) < storedBefore + 100 * CPU_SECONDS) {
      if (performance.now() > deadline) throw new Error('the service did not store every message published within a minute');
      await sleep(50);
    }
  });
  const floorMqttCpu = await cpuDuring(floorMqtt, () => paced(100, CPU_SECONDS, publishAt(`${prefix}-floor`)));
  await publisher.endAsync();
  await stop(floorMqtt);
  await stop(mqttService.child);
  await broker.remove();
  folder.remove();
  log(`CPU at 100/s over MQTT: service ${(mqttCpu * 100).toFixed(1)} %, floor ${(floorMqttCpu * 100).toFixed(1)} %`);

  const mb = (value: number) => `${value.toFixed(1)} MB`;
  const pct = (value: number) => `${(value * 100).toFixed(1)} %`;
  const loadLabel = HOURS !== undefined ? `${HOURS} h` : `${LOAD_SECONDS / 60} min`;
  const rows = [
    [
      'ready (spawn → /healthz 200), median of ' + STARTS,
      `${Math.round(median(ready))} ms`,
      `${Math.round(median(floorReady))} ms (bare node:http)`,
      '≤ 1.5 s',
    ],
    ['idle RSS after start, median of ' + STARTS, mb(median(idle)), `${mb(bareRss)} (bare node -e)`, '≤ 80 MB'],
    [`RSS 5 s after ${loadLabel} of ${SENSORS} sensors at 1 Hz (HTTP)`, mb(afterLoad), `${mb(bareRss)} (bare node -e)`, ''],
    [`idle RSS 30 s after those ${loadLabel}`, mb(idleAfterLoad), `${mb(bareRss)} (bare node -e)`, '≤ 80 MB'],
    [`highest RSS sampled during those ${loadLabel} (peak)`, `${mb(highest)} (${mb(peak)})`, '', ''],
    ['CPU at 100 readings/s over HTTP (1 reading a request)', pct(httpCpu), `${pct(floorHttpCpu)} (bare node:http)`, 'bench figure'],
    [
      'CPU at 100 readings/s over MQTT (QoS 1, 1 reading a message)',
      pct(mqttCpu),
      `${pct(floorMqttCpu)} (bare MQTT.js subscriber)`,
      'bench figure',
    ],
  ];
  const table = [
    '| figure | service | floor, same run | target |',
    '|---|---|---|---|',
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
  console.log(table);
  record(table, loadLabel, failed);
}

async function mqttStored(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(/^sensorhub_mqtt_messages_stored_total (\S+)$/m.exec(text)?.[1] ?? 0);
}

/** Appends the run to the log of BENCHMARKS.md and puts its table under "Footprint" in the current figures. */
function record(table: string, loadLabel: string, failed: number): void {
  const file = join(ROOT, 'BENCHMARKS.md');
  const at = new Date().toISOString();
  const settings = `Node ${process.version}, node options \`${NODE_OPTIONS || '(none)'}\`, malloc \`${MALLOC_TEXT}\`; SQLite, dashboard, history and alerts on; ${SENSORS} sensors at 1 Hz for ${loadLabel} (${failed} failed); CPU over ${CPU_SECONDS} s of each load.`;
  let text = readFileSync(file, 'utf8');
  const current = `### Footprint\n\n\`npm run bench:footprint\` (\`-- --hours 1\` for the hour-long figure). From "npm run bench:footprint — ${at}". ${settings}\n\n${table}\n\n`;
  const section = /### Footprint\n[\s\S]*?(?=\n### |\n# Log)/;
  text = section.test(text) ? text.replace(section, current.trimEnd() + '\n') : text.replace(/\n# Log\n/, `\n${current}# Log\n`);
  text = `${text.trimEnd()}\n\n## npm run bench:footprint — ${at}\n\n${settings}\n\n${table}\n`;
  writeFileSync(file, text);
  log('appended to BENCHMARKS.md');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

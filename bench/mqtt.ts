/**
 * `npm run bench:mqtt`: MQTT ingest of single-measurement QoS 1 messages from one publisher, on
 * SQLite, beside a floor in the same run: a bare MQTT.js subscriber (bench/lib/mqtt-floor.ts) on
 * the same broker receiving and acknowledging the same messages. Alternate slices of floor and
 * service (MQTT_BENCH_ROUNDS, 5, of MQTT_BENCH_MESSAGES, 20,000, messages each); each slice is
 * timed from its first publication to the moment all its messages were taken (the floor answers
 * the slice's last message; the service's count of stored messages, read from /metrics every 20
 * ms, reaches the slice's end — its connections take messages side by side, so the last one sent
 * is not always the last one stored), and the ratio is the median of the rounds' ratios. Then the
 * count the service stored is checked against the count published.
 *
 * The broker is a Mosquitto of the run's own (it must be on PATH), with no limit on the messages
 * it queues for a session: with the default limit (1000) a publisher that runs ahead of its
 * subscribers has messages dropped, floor and service alike. It prints a Markdown table.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { connectAsync, type MqttClient } from 'mqtt';
import { startBroker } from '../test/helpers/mosquitto.js';
import { ROOT, startService } from './lib/processes.js';
import { stopOnExit, temporaryFolder } from './lib/temporary.js';

/** The value of a slice's last message (plus the slice's number): the floor and the service tell its arrival. */
const END_MARKER = 1_000_000;
const MESSAGES = Number(process.env.MQTT_BENCH_MESSAGES ?? 20_000);
const ROUNDS = Number(process.env.MQTT_BENCH_ROUNDS ?? 5);
const SENSOR = 1;

const log = (message: string) => console.error(`[bench:mqtt] ${message}`);
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const storedCount = async (url: string) =>
  Number(/^sensorhub_mqtt_messages_stored_total (\S+)$/m.exec(await (await fetch(`${url}/metrics`)).text())?.[1] ?? NaN);

/** Resolves once the service has stored `count` messages in all. */
async function storedReaches(url: string, count: number): Promise<void> {
  while ((await storedCount(url)) < count) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** Resolves with the first message on `topic` whose text satisfies `match`. */
function next(client: MqttClient, topic: string, match: (text: string) => boolean): Promise<void> {
  return new Promise((resolve) => {
    const listener = (t: string, payload: Buffer) => {
      if (t !== topic || !match(payload.toString())) return;
      client.off('message', listener);
      resolve();
    };
    client.on('message', listener);
  });
}

/** Publishes `count` QoS 1 messages (the last one the slice's end marker); resolves with messages/s once `done` resolves. */
async function slice(
  publisher: MqttClient,
  prefix: string,
  count: number,
  marker: number,
  done: Promise<void> | (() => Promise<void>),
): Promise<number> {
  const topic = `${prefix}/sensors/${SENSOR}/measurements`;
  const started = performance.now();
  for (let i = 0; i < count - 1; i++) publisher.publish(topic, String(i % 1000), { qos: 1 });
  publisher.publish(topic, String(marker), { qos: 1 });
  await (typeof done === 'function' ? done() : done);
  return count / ((performance.now() - started) / 1000);
}

async function main(): Promise<void> {
  const run = randomBytes(4).toString('hex');
  const servicePrefix = `bench-mqtt-${run}`;
  const floorPrefix = `bench-mqtt-floor-${run}`;
  const folder = temporaryFolder('sensorhub-bench-mqtt-');
  const broker = await startBroker();
  const BROKER = broker.url;
  const service = await startService({
    DATABASE_URL: `sqlite:${join(folder.path, 'bench.db')}`,
    MQTT_URL: BROKER,
    MQTT_TOPIC_PREFIX: servicePrefix,
    MQTT_CLIENT_ID: `${servicePrefix}-service`,
    MQTT_HA_DISCOVERY: 'false',
  });
  log(`broker ${BROKER}, service ${service.url}`);
  for (;;) {
    const health = (await (await fetch(`${service.url}/healthz`)).json()) as { mqtt?: string };
    if (health.mqtt === 'connected') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const floor = stopOnExit(
    spawn(process.execPath, ['--import', 'tsx', 'bench/lib/mqtt-floor.ts', BROKER, floorPrefix, String(END_MARKER)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  await new Promise<void>((resolve) => createInterface({ input: floor.stdout! }).once('line', () => resolve()));
  log('service linked, floor subscribed');

  const publisher = await connectAsync(BROKER, { protocolVersion: 5, clientId: `${servicePrefix}-publisher`, reconnectPeriod: 0 });
  await publisher.subscribeAsync(`${floorPrefix}/floor/done`, { qos: 1 });

  const floorRates: number[] = [];
  const serviceRates: number[] = [];
  let published = 0;
  const runSlice = async (round: number, warmUp: boolean, count: number) => {
    const marker = END_MARKER + (round + 1) * 2 + (warmUp ? 0 : 1);
    const floorDone = next(publisher, `${floorPrefix}/floor/done`, (text) => (JSON.parse(text) as { value: number }).value === marker);
    const floorRate = await slice(publisher, floorPrefix, count, marker, floorDone);
    const serviceRate = await slice(publisher, servicePrefix, count, marker, () => storedReaches(service.url, published + count));
    published += count;
    if (warmUp) return;
    floorRates.push(floorRate);
    serviceRates.push(serviceRate);
    log(
      `round ${round + 1}: floor ${Math.round(floorRate)}/s, service ${Math.round(serviceRate)}/s, ratio ${(serviceRate / floorRate).toFixed(2)}`,
    );
  };
  // A short warm-up of each, not counted: the first messages compile the code paths.
  await runSlice(-1, true, Math.min(2000, MESSAGES));
  for (let round = 0; round < ROUNDS; round++) await runSlice(round, false, MESSAGES);

  const stored = await storedCount(service.url);
  const rows = ((await (await fetch(`${service.url}/measurements/${SENSOR}`)).json()) as unknown[]).length;

  await publisher.endAsync();
  floor.kill('SIGTERM');
  await service.stop();
  await broker.remove();
  folder.remove();

  const ratio = median(serviceRates.map((s, i) => s / floorRates[i]));
  console.log(
    '| scenario | floor msg/s (median) | service msg/s (median) | ratio (median of rounds) | target | published | stored (rows) |',
  );
  console.log('|---|---|---|---|---|---|---|');
  console.log(
    `| MQTT ingest, 1 publisher, QoS 1, 1 measurement/message, SQLite | ${Math.round(median(floorRates))} | ${Math.round(median(serviceRates))} | ${ratio.toFixed(2)} | ≥ 0.5 | ${published} | ${stored} (${rows}) |`,
  );
  if (stored !== published || rows !== published) {
    log(`stored ${stored} messages (${rows} rows) of ${published} published`);
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { databaseProxy } from '../helpers/db-proxy.js';
import { type Broker, startBroker } from '../helpers/mosquitto.js';
import { eventually, mqttEnv, testClient, uniquePrefix } from '../helpers/mqtt.js';
import { type ServiceProcess, spawnService } from '../helpers/process.js';
import { type ScratchDatabase, scratchDatabase, storeKinds } from '../helpers/stores.js';

const MESSAGES = 1500;
/** Messages committed whose acknowledgements never reach the broker. */
const UNACKNOWLEDGED = 40;

/**
 * The service as a real process, killed with SIGKILL in the middle of a stream of QoS 1
 * messages: nothing the broker acknowledged to the publisher is lost, and nothing is stored
 * twice after the restart (the messages carry timestamps: a redelivered one that was committed
 * before the kill is recognised).
 */
describe.each(storeKinds())('MQTT ingest across a SIGKILL (%s)', (kind) => {
  let broker: Broker;
  let database: ScratchDatabase;
  let prefix: string;
  const processes: ServiceProcess[] = [];

  beforeEach(async () => {
    broker = await startBroker();
    database = await scratchDatabase(kind);
    prefix = uniquePrefix();
  });

  afterEach(async () => {
    for (const service of processes.splice(0)) await service.stop('SIGKILL');
    await broker.remove();
    await database.drop();
  });

  const start = async (brokerUrl = broker.url) => {
    const service = await spawnService({ DATABASE_URL: database.url, ...mqttEnv(prefix, brokerUrl) }, 30_000);
    processes.push(service);
    await eventually(
      async () => ((await (await fetch(`${service.url}/healthz`)).json()) as { mqtt?: string }).mqtt === 'connected',
      'the link',
      20_000,
    );
    return service;
  };
  const metric = async (service: ServiceProcess, name: string) =>
    Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(await (await fetch(`${service.url}/metrics`)).text())?.[1] ?? NaN);
  const stored = async (service: ServiceProcess) =>
    ((await (await fetch(`${service.url}/measurements/2`)).json()) as { value: number; timestamp: string }[]).map((m) => m.value);

  it('loses no acknowledged message and stores each at most once', async () => {
    const first = await start();
    const device = await testClient(broker.url);
    const base = Date.now() - 3600_000;
    const acknowledged = new Set<number>();
    const topic = `${prefix}/sensors/2/measurements`;
    const publishing = (async () => {
      for (let i = 0; i < MESSAGES; i++) {
        const payload = JSON.stringify({ value: i, timestamp: new Date(base + i * 1000).toISOString() });
        // Resolves once the broker acknowledged it (PUBACK): from then on it must not be lost.
        void device.publish(topic, payload).then(() => acknowledged.add(i));
        if (i % 50 === 49) await new Promise((resolve) => setImmediate(resolve));
      }
    })();

    await eventually(async () => (await stored(first)).length >= 200 || undefined, 'part of the stream to be stored', 20_000);
    await first.stop('SIGKILL');
    processes.splice(processes.indexOf(first), 1);
    await publishing;
    await eventually(() => acknowledged.size === MESSAGES, 'the broker to acknowledge the whole stream', 20_000);
    await device.close();

    const second = await start();
    await eventually(
      async () => {
        const values = new Set(await stored(second));
        return [...acknowledged].every((i) => values.has(i));
      },
      'every acknowledged message to be stored',
      30_000,
    );
    const values = await stored(second);
    expect(values.length).toBe(new Set(values).size);
    expect(new Set(values).size).toBe(MESSAGES);
  }, 120_000);

  it('stores once a committed message whose acknowledgement the broker never got: delivered again after a SIGKILL', async () => {
    // The first process reaches the broker through a proxy that, once it is subscribed, lets
    // nothing it sends through: it receives and commits, and no acknowledgement arrives.
    const proxy = databaseProxy(new URL(broker.url));
    await proxy.open();
    try {
      const first = await start(proxy.via(broker.url));
      proxy.muteClients();
      const device = await testClient(broker.url);
      const base = Date.now() - 3600_000;
      for (let i = 0; i < UNACKNOWLEDGED; i++) {
        const payload = JSON.stringify({ value: i, timestamp: new Date(base + i * 1000).toISOString() });
        await device.publish(`${prefix}/sensors/2/measurements`, payload);
      }
      await device.close();
      await eventually(async () => (await stored(first)).length === UNACKNOWLEDGED, 'the messages to be committed', 20_000);
      expect(await metric(first, 'sensorhub_mqtt_messages_stored_total')).toBe(UNACKNOWLEDGED);
      await first.stop('SIGKILL');
      processes.splice(processes.indexOf(first), 1);

      // The broker delivers them all again to the sessions, now of a second process.
      const second = await start();
      await eventually(
        async () => (await metric(second, 'sensorhub_mqtt_messages_duplicate_total')) === UNACKNOWLEDGED,
        'every message to be delivered again and found stored',
        20_000,
      );
      const values = (await stored(second)).sort((a, b) => a - b);
      expect(values).toEqual(Array.from({ length: UNACKNOWLEDGED }, (_, i) => i));
      expect(await metric(second, 'sensorhub_mqtt_messages_stored_total')).toBe(0);
    } finally {
      await proxy.cut();
    }
  }, 120_000);
});

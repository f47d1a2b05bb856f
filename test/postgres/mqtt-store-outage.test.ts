import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseProxy } from '../helpers/db-proxy.js';
import { cleanBroker, eventually, mqttEnv, serviceClientIds, type TestClient, testClient, uniquePrefix } from '../helpers/mqtt.js';
import { startService, type TestService } from '../helpers/service.js';
import { type ScratchDatabase, scratchDatabase } from '../helpers/stores.js';

/** A message that arrives while PostgreSQL is away is held, unacknowledged and unrefused, and stored once it is back. */
describe.runIf(process.env.TEST_DATABASE_URL)('MQTT ingest while PostgreSQL is away', () => {
  let database: ScratchDatabase;
  let service: TestService;
  let proxy: ReturnType<typeof databaseProxy>;
  let device: TestClient;
  let prefix: string;

  beforeAll(async () => {
    database = await scratchDatabase('postgres');
    proxy = databaseProxy(new URL(database.url));
    await proxy.open();
    const viaProxy = new URL(database.url);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    prefix = uniquePrefix();
    service = await startService('postgres', {
      database: { url: viaProxy.toString(), drop: async () => {} },
      env: { ...mqttEnv(prefix), DATABASE_CONNECT_TIMEOUT_MS: '1000' },
    });
    await eventually(async () => (await service.get('/healthz')).body.mqtt === 'connected', 'the service to subscribe');
    device = await testClient();
    await device.subscribe(`${prefix}/errors`);
  });

  afterAll(async () => {
    await device?.close();
    await service?.close();
    await proxy?.cut();
    await database?.drop();
    await cleanBroker(prefix, serviceClientIds(prefix));
  });

  const metric = async (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec((await service.get('/metrics')).text)?.[1] ?? 0);

  it('holds the message until the store answers, then stores it, refusing nothing', async () => {
    await proxy.cut();
    await device.publish(`${prefix}/sensors/2/measurements`, '7.5');
    await eventually(async () => (await metric('sensorhub_mqtt_messages_received_total')) === 1, 'the message to arrive');
    expect((await service.get('/healthz')).status).toBe(503);
    expect(await metric('sensorhub_mqtt_messages_stored_total')).toBe(0);
    expect(await metric('sensorhub_mqtt_messages_refused_total')).toBe(0);

    await proxy.open();
    await eventually(async () => (await metric('sensorhub_mqtt_messages_stored_total')) === 1, 'the message to be stored', 20_000);
    const stored = (await service.get('/measurements/2')).body as { value: number }[];
    expect(stored.map((m) => m.value)).toEqual([7.5]);
    expect(await metric('sensorhub_mqtt_messages_refused_total')).toBe(0);
    expect(device.received).toEqual([]);
  });
});

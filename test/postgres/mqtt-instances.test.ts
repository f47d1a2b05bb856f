import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanBroker, eventually, mqttEnv, serviceClientIds, testClient, uniquePrefix } from '../helpers/mqtt.js';
import { startService, type TestService } from '../helpers/service.js';
import { type ScratchDatabase, scratchDatabase } from '../helpers/stores.js';

const MESSAGES = 400;

describe.runIf(process.env.TEST_DATABASE_URL)('two instances on one PostgreSQL sharing the MQTT subscription', () => {
  let database: ScratchDatabase;
  let prefix: string;
  let a: TestService;
  let b: TestService;

  beforeAll(async () => {
    database = await scratchDatabase('postgres');
    prefix = uniquePrefix();
    a = await startService('postgres', { env: mqttEnv(prefix, undefined, '-a'), database });
    b = await startService('postgres', { env: mqttEnv(prefix, undefined, '-b'), database });
    for (const service of [a, b]) {
      await eventually(async () => (await service.get('/healthz')).body.mqtt === 'connected', 'both instances to subscribe');
    }
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
    await cleanBroker(prefix, [...serviceClientIds(prefix, '-a'), ...serviceClientIds(prefix, '-b')]);
  });

  const received = async (service: TestService) =>
    Number(/^sensorhub_mqtt_messages_received_total (\S+)$/m.exec((await service.get('/metrics')).text)?.[1] ?? NaN);

  it('stores each message once, the instances sharing the work', async () => {
    const device = await testClient();
    for (let i = 0; i < MESSAGES; i++) await device.publish(`${prefix}/sensors/2/measurements`, String(i));
    await device.close();
    const values = async () => ((await a.get('/measurements/2')).body as { value: number }[]).map((m) => m.value);
    await eventually(async () => (await values()).length >= MESSAGES, 'every message to be stored', 20_000);
    // Both have taken their share, and nothing more arrives: each message went to one of them.
    expect((await received(a)) + (await received(b))).toBe(MESSAGES);
    expect(await received(a)).toBeGreaterThan(0);
    expect(await received(b)).toBeGreaterThan(0);
    const stored = await values();
    expect(stored.length).toBe(MESSAGES);
    expect(new Set(stored).size).toBe(MESSAGES);
  });

  it('publishes each alert event once, from the instance that committed it', async () => {
    const observer = await testClient();
    await observer.subscribe(`${prefix}/alerts`);
    const events = () => observer.received.filter((m) => m.topic === `${prefix}/alerts`).map((m) => JSON.parse(m.text));
    // The default EC sensor: critically high above 3; raised through one instance, acknowledged through the other.
    expect((await a.post('/measurements', { sensor_id: 1, value: 3.5 })).status).toBe(200);
    const raised = await observer.waitFor((m) => JSON.parse(m.text).event === 'raised');
    const alertId = JSON.parse(raised.text).alert.alert_id;
    expect((await b.post(`/alerts/${alertId}/acknowledge`)).status).toBe(200);
    await observer.waitFor((m) => JSON.parse(m.text).event === 'acknowledged');
    // By then the raise had long been relayed to the other instance, which left it unpublished.
    expect(events().map((e) => [e.event, e.alert.alert_id])).toEqual([
      ['raised', alertId],
      ['acknowledged', alertId],
    ]);
    await observer.close();
  });
});

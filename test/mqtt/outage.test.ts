import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Broker, startBroker } from '../helpers/mosquitto.js';
import { eventually, mqttEnv, testClient, uniquePrefix } from '../helpers/mqtt.js';
import { startService, type TestService } from '../helpers/service.js';
import { type ScratchDatabase, scratchDatabase, storeKinds } from '../helpers/stores.js';

/** A broker of the test's own: these tests stop it, or leave sessions behind on it. */
describe.each(storeKinds())('MQTT when the service or the broker is away (%s)', (kind) => {
  let broker: Broker;
  let database: ScratchDatabase;
  let prefix: string;
  const running: TestService[] = [];

  beforeEach(async () => {
    broker = await startBroker();
    database = await scratchDatabase(kind);
    prefix = uniquePrefix();
  });

  afterEach(async () => {
    for (const service of running.splice(0)) await service.close();
    await broker.remove();
    await database.drop();
  });

  const start = async () => {
    const service = await startService(kind, { env: mqttEnv(prefix, broker.url), database });
    running.push(service);
    return service;
  };
  const stop = async (service: TestService) => {
    running.splice(running.indexOf(service), 1);
    await service.close();
  };
  const linked = (service: TestService) =>
    eventually(async () => (await service.get('/healthz')).body.mqtt === 'connected', 'the MQTT link to be up', 20_000);
  const values = async (service: TestService, sensorId: number) =>
    ((await service.get(`/measurements/${sensorId}`)).body as { value: number }[]).map((m) => m.value).sort((a, b) => a - b);

  it('stores what devices published while it was stopped, once it is back', async () => {
    const first = await start();
    await linked(first);
    await stop(first);

    const device = await testClient(broker.url);
    // Each publication resolves once the broker acknowledged it.
    for (let i = 0; i < 20; i++) await device.publish(`${prefix}/sensors/2/measurements`, String(i));
    await device.close();

    const second = await start();
    await eventually(async () => (await values(second, 2)).length === 20, 'the queued messages to be stored', 20_000);
    expect(await values(second, 2)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('keeps serving HTTP while the broker is down, shows it on /healthz, and reconnects when it is back', async () => {
    const service = await start();
    await linked(service);

    await broker.stop();
    const down = await eventually(async () => {
      const health = await service.get('/healthz');
      return health.body.mqtt !== 'connected' && health;
    }, 'the link to be shown down');
    expect(down.status).toBe(200);
    expect(['connecting', 'disconnected']).toContain(down.body.mqtt);
    expect((await service.get('/metrics')).text).toMatch(/^sensorhub_mqtt_connected 0$/m);
    const posted = await service.post('/measurements', { sensor_id: 3, value: 21.5 });
    expect(posted.status).toBe(200);

    await broker.start();
    await linked(service);
    expect((await service.get('/metrics')).text).toMatch(/^sensorhub_mqtt_reconnects_total [1-9]\d*$/m);
    const device = await testClient(broker.url);
    await device.subscribe(`${prefix}/sensors/3/last`);
    await device.publish(`${prefix}/sensors/3/measurements`, '22.5');
    await eventually(async () => (await values(service, 3)).includes(22.5), 'the message after the outage to be stored');
    // The newest value is published again after the reconnection.
    await device.waitFor((m) => m.topic === `${prefix}/sensors/3/last` && JSON.parse(m.text).value === 22.5);
    await device.close();
  });
});

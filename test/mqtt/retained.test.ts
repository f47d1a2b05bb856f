import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Broker, startBroker } from '../helpers/mosquitto.js';
import { eventually, mqttEnv, type TestClient, testClient, uniquePrefix } from '../helpers/mqtt.js';
import { startService, type TestService } from '../helpers/service.js';
import { type ScratchDatabase, scratchDatabase, storeKinds } from '../helpers/stores.js';

/**
 * A broker of the test's own, holding retained messages and the service's sessions from one start
 * of the service to the next.
 */
describe.each(storeKinds())('MQTT retained messages on the ingest topics (%s)', (kind) => {
  let broker: Broker;
  let database: ScratchDatabase;
  let prefix: string;
  let device: TestClient;
  const running: TestService[] = [];

  beforeEach(async () => {
    broker = await startBroker();
    database = await scratchDatabase(kind);
    prefix = uniquePrefix();
    device = await testClient(broker.url);
    await device.subscribe(`${prefix}/errors`);
  });

  afterEach(async () => {
    await device.close();
    for (const service of running.splice(0)) await service.close();
    await broker.remove();
    await database.drop();
  });

  /** Starts the service on the test's store and broker, and waits until every link is subscribed. */
  const start = async () => {
    const service = await startService(kind, { env: mqttEnv(prefix, broker.url), database });
    running.push(service);
    await eventually(async () => (await service.get('/healthz')).body.mqtt === 'connected', 'the service to subscribe', 20_000);
    return service;
  };
  const stop = async (service: TestService) => {
    running.splice(running.indexOf(service), 1);
    await service.close();
  };
  const values = async (service: TestService) => ((await service.get('/measurements/1')).body as { value: number }[]).map((m) => m.value);

  it('stores none of them, across restarts, and each ordinary message once', async () => {
    const topic = `${prefix}/sensors/1/measurements`;
    // Retained before the service first subscribes: the broker would hand it to every subscription.
    await device.publish(topic, '3.3333', 1, true);

    const first = await start();
    await device.publish(topic, '4.25');
    await eventually(async () => (await values(first)).includes(4.25), 'the ordinary message to be stored');
    // Retained while the service is subscribed: arrives live, flagged retained, and is refused.
    await device.publish(topic, '5.5', 1, true);
    const report = JSON.parse((await device.waitFor((m) => m.topic === `${prefix}/errors`)).text);
    expect(report).toMatchObject({ topic, payload: '5.5', reason: expect.stringMatching(/retained message is not stored/) });
    expect(await values(first)).toEqual([4.25]);
    await stop(first);

    for (const value of [6.75, 7.125]) {
      const again = await start();
      await device.publish(topic, String(value));
      await eventually(async () => (await values(again)).includes(value), 'the message after the restart to be stored');
      await stop(again);
    }

    const last = await start();
    await device.publish(topic, '8.5');
    await eventually(async () => (await values(last)).includes(8.5), 'the last message to be stored');
    expect((await values(last)).sort((a, b) => a - b)).toEqual([4.25, 6.75, 7.125, 8.5]);
    // Only the live retained message was ever delivered to be refused: the broker replayed none.
    expect(device.received.filter((m) => m.topic === `${prefix}/errors`)).toHaveLength(1);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanBroker, eventually, mqttEnv, serviceClientIds, type TestClient, testClient, uniquePrefix } from '../helpers/mqtt.js';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';

/**
 * Each dose on `<prefix>/actuators/<id>/doses` (docs/api.md §15), through a real Mosquitto: a run
 * reported by a controller over MQTT or over HTTP is published once, not retained, as
 * `GET /actuators/{id}/activations` answers it, with the volume taken from the bottle.
 */
describe.each(storeKinds())('MQTT dose publications (%s)', (kind) => {
  let service: TestService;
  let controller: TestClient;
  let prefix: string;
  beforeAll(async () => {
    prefix = uniquePrefix();
    service = await startService(kind, { env: mqttEnv(prefix) });
    await eventually(async () => (await service.get('/healthz')).body.mqtt === 'connected', 'the service to subscribe');
    controller = await testClient();
    await controller.subscribe(`${prefix}/actuators/+/doses`);
  });
  afterAll(async () => {
    await controller?.close();
    await service?.close();
    await cleanBroker(prefix, serviceClientIds(prefix));
  });

  const dosesOf = async (id: number) => (await service.get(`/actuators/${id}/activations`)).body as Record<string, unknown>[];
  const publishedFor = (id: number) => controller.received.filter((m) => m.topic === `${prefix}/actuators/${id}/doses`);

  it('publishes each dose reported over MQTT and over HTTP, once, not retained, with its volume', async () => {
    const pump = await service.post('/actuators', {
      actuator_type: 'base_pump',
      sensor_id: 2,
      condition_value: 5.5,
      activation_condition: 'low',
      activation_period: 0,
      activation_duration: 4,
      flow_ml_per_s: 1.25,
      stock_ml: 100,
    });
    expect(pump.status).toBe(200);
    const id = pump.body.actuator_id as number;
    const topic = `${prefix}/actuators/${id}/doses`;

    await controller.publish(`${prefix}/actuators/${id}/activated`, '');
    const first = await controller.waitFor((m) => m.topic === topic);
    const [recorded] = await dosesOf(id);
    expect(JSON.parse(first.text)).toEqual(recorded);
    expect(recorded).toMatchObject({ actuator_id: id, duration: 4, volume_ml: 5, answered: null });
    expect(first.retain).toBe(false);
    expect((await service.store.actuators.get(id))?.stock_ml).toBe(95);

    expect((await service.patch(`/actuators/${id}/last_activated`)).status).toBe(200);
    await controller.waitFor((m) => m.topic === topic && JSON.parse(m.text).activation_id !== recorded.activation_id);
    const doses = await dosesOf(id);
    expect(publishedFor(id).map((m) => JSON.parse(m.text))).toEqual([doses[1], doses[0]]);
    expect((await service.store.actuators.get(id))?.stock_ml).toBe(90);

    const metrics = (await service.get('/metrics')).text;
    expect(metrics).toMatch(/^sensorhub_mqtt_messages_published_total\{kind="dose"\} 2$/m);
  });
});

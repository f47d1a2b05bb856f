import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { phSensorBody } from '../helpers/bodies.js';
import { cleanBroker, eventually, mqttEnv, serviceClientIds, type TestClient, testClient, uniquePrefix } from '../helpers/mqtt.js';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';

/**
 * Dosing that aims over a real Mosquitto: the state topic of a proportional pump carries the
 * sized duration with its set point, error and gain, and a run reported over MQTT records the
 * sized dose; a sequenced part's state topic says it waits.
 */
describe.each(storeKinds())('MQTT dosing that aims (%s)', (kind) => {
  let service: TestService;
  let controller: TestClient;
  let prefix: string;
  beforeAll(async () => {
    prefix = uniquePrefix();
    service = await startService(kind, { env: mqttEnv(prefix) });
    await eventually(async () => (await service.get('/healthz')).body.mqtt === 'connected', 'the service to subscribe');
    controller = await testClient();
    await controller.subscribe(`${prefix}/actuators/+/state`);
    await controller.subscribe(`${prefix}/actuators/+/doses`);
  });
  afterAll(async () => {
    await controller?.close();
    await service?.close();
    await cleanBroker(prefix, serviceClientIds(prefix));
  });

  it('publishes the sized dose on the state topic and records it when the run is reported over MQTT', async () => {
    expect((await service.post('/prototypes', { prototype_id: 700, prototype_name: 'mqtt tank' })).status).toBe(200);
    const sensor_id = (await service.post('/sensors/', { ...phSensorBody, threshold_high: 14, prototype_id: 700 })).body.sensor_id;
    const pump = await service.post('/actuators', {
      actuator_type: 'acid_pump',
      sensor_id,
      condition_value: 6.5,
      activation_condition: 'high',
      activation_period: 0,
      activation_duration: 30,
      setpoint: 6.0,
      band: 0.1,
      dose_mode: 'proportional',
      initial_gain: 0.05,
    });
    expect(pump.status, JSON.stringify(pump.body)).toBe(200);
    const id = pump.body.actuator_id as number;
    expect((await service.post('/measurements', { sensor_id, value: 7.0 })).status).toBe(200);

    const stateTopic = `${prefix}/actuators/${id}/state`;
    const state = await controller.waitFor((m) => m.topic === stateTopic && JSON.parse(m.text).activate === true);
    expect(JSON.parse(state.text)).toMatchObject({ activate: true, reason: 'ok', duration: 16, setpoint: 6, error: 1, gain: 0.05 });

    await controller.publish(`${prefix}/actuators/${id}/activated`, '');
    const dose = await controller.waitFor((m) => m.topic === `${prefix}/actuators/${id}/doses`);
    expect(JSON.parse(dose.text)).toMatchObject({ actuator_id: id, duration: 16 });
  });
});

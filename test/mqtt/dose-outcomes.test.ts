import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { phSensorBody } from '../helpers/bodies.js';
import { cleanBroker, eventually, mqttEnv, serviceClientIds, type TestClient, testClient, uniquePrefix } from '../helpers/mqtt.js';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';

/**
 * Doses reported over MQTT are judged by their outcome like those reported over HTTP, through a
 * real Mosquitto: the wrong bottle (each dose raises the pH) locks the pump out after 3 reversed
 * doses with default settings, and the retained state topic says so.
 */
const NOW = Date.UTC(2026, 10, 23, 8);
const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe.each(storeKinds())('MQTT run reports judged by outcome (%s)', (kind) => {
  let service: TestService;
  let controller: TestClient;
  let prefix: string;
  beforeAll(async () => {
    prefix = uniquePrefix();
    service = await startService(kind, { env: mqttEnv(prefix), now: NOW });
    await eventually(async () => (await service.get('/healthz')).body.mqtt === 'connected', 'the service to subscribe');
    controller = await testClient();
    await controller.subscribe(`${prefix}/actuators/+/state`);
  });
  afterAll(async () => {
    await controller?.close();
    await service?.close();
    await cleanBroker(prefix, serviceClientIds(prefix));
  });

  it('the wrong bottle: 3 reversed doses reported over MQTT lock the pump out, and its state topic says locked_out', async () => {
    expect((await service.post('/prototypes', { prototype_id: 40, prototype_name: 'mqtt tank' })).status).toBe(200);
    const sensor = await service.post('/sensors/', { ...phSensorBody, threshold_critically_low: 4, prototype_id: 40 });
    const pump = await service.post('/actuators', {
      actuator_type: 'acid_pump',
      sensor_id: sensor.body.sensor_id,
      condition_value: 6.5,
      activation_condition: 'high',
      activation_period: 180,
      activation_duration: 2,
      response_delay: 120,
    });
    expect(pump.status).toBe(200);
    const id = pump.body.actuator_id as number;
    let ph = 6.8;
    const landing: number[] = [];
    let reported = 0;
    let reason = '';
    for (let m = 0; m < 40 && reason !== 'locked_out'; m++) {
      const at = NOW + m * MINUTE;
      service.clock.now = at;
      while (landing.length && landing[0] <= at) {
        landing.shift();
        ph += 0.15;
      }
      // A little wobble, as a live probe has.
      const value = Math.round((ph + ((m * 7) % 5) * 0.004) * 1000) / 1000;
      expect((await service.post('/measurements', { sensor_id: sensor.body.sensor_id, value, timestamp: iso(at) })).status).toBe(200);
      await service.app.alertsSettled();
      // The controller decides from what the tank's status shows (a read that claims no dose) and
      // reports its runs over MQTT: reports with no claim, each a dose.
      const status = (await service.get('/prototypes/40/status')).body;
      reason = status.actuators.find((a: { actuator: { actuator_id: number } }) => a.actuator.actuator_id === id).state.reason;
      if (m % 3 === 0 && reason === 'ok') {
        await controller.publish(`${prefix}/actuators/${id}/activated`, '');
        reported++;
        await eventually(async () => (await service.get(`/actuators/${id}/activations`)).body.length === reported, 'the dose');
        await service.app.alertsSettled();
        landing.push(at + 2 * MINUTE);
      }
    }
    expect(reason).toBe('locked_out');
    expect(reported).toBeLessThanOrEqual(5);
    const doses = (await service.get(`/actuators/${id}/activations`)).body as { reversed: boolean | null }[];
    expect(doses.filter((d) => d.reversed === true).length).toBe(3);
    const state = await controller.waitFor(
      (msg) => msg.topic === `${prefix}/actuators/${id}/state` && JSON.parse(msg.text).reason === 'locked_out',
    );
    expect(JSON.parse(state.text)).toMatchObject({ activate: false, reason: 'locked_out' });
    expect(JSON.parse(state.text).status).toContain('moves the wrong way after doses');
  });
});

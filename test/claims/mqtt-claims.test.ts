import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanBroker, eventually, mqttEnv, serviceClientIds, type TestClient, testClient, uniquePrefix } from '../helpers/mqtt.js';
import { basePumpBody, phSensorBody } from '../helpers/bodies.js';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';

/**
 * Claims over MQTT (docs/safety.md "A dose is a claim"), through a real Mosquitto. The state topic
 * of an actuator with `controller: "mqtt"` is what its controller acts on: it carries
 * `activate: true` only for a committed claim, then `claimed`, and the run report on
 * `…/activated` completes that dose. For an `http` actuator the topic only describes the
 * decision: no claim, no dose.
 */
describe.each(storeKinds())('claims on the MQTT state topic (%s)', (kind) => {
  let service: TestService;
  let controller: TestClient;
  let prefix: string;
  beforeAll(async () => {
    prefix = uniquePrefix();
    service = await startService(kind, { env: mqttEnv(prefix) });
    await eventually(async () => (await service.get('/healthz')).body.mqtt === 'connected', 'the service to subscribe');
    controller = await testClient();
    await controller.subscribe(`${prefix}/actuators/+/state`);
  });
  afterAll(async () => {
    await controller?.close();
    await service?.close();
    await cleanBroker(prefix, serviceClientIds(prefix));
  });

  const statesOf = (id: number) =>
    controller.received
      .filter((m) => m.topic === `${prefix}/actuators/${id}/state`)
      .map((m) => JSON.parse(m.text) as Record<string, unknown>);
  const dosesOf = async (id: number) => (await service.get(`/actuators/${id}/activations`)).body as Record<string, unknown>[];

  /** A pump made two minutes ago on a fresh pH sensor; then a reading of 5.0 makes it want to run. */
  async function pumpThatWantsToRun(controllerKind: 'http' | 'mqtt') {
    const at = Date.now();
    service.clock.now = at - 120_000;
    const sensor = (await service.post('/sensors/', phSensorBody)).body.sensor_id as number;
    const res = await service.post('/actuators', { ...basePumpBody(sensor), controller: controllerKind });
    expect(res.status).toBe(200);
    expect(res.body.controller).toBe(controllerKind);
    const id = res.body.actuator_id as number;
    service.clock.now = at;
    await service.post('/measurements', { sensor_id: sensor, value: 5.0 });
    return id;
  }

  it('mqtt controller: activate: true once, for a committed claim, then claimed; the MQTT report completes the dose', async () => {
    const id = await pumpThatWantsToRun('mqtt');
    await eventually(() => statesOf(id).some((s) => s.reason === 'claimed'), 'the claimed state after the claim');
    const told = statesOf(id).filter((s) => s.activate === true);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ reason: 'ok', duration: 3 });
    expect(await dosesOf(id)).toEqual([expect.objectContaining({ reported: false })]);
    // The HTTP read is told the same: the dose is claimed.
    expect((await service.get(`/actuators/${id}/state`)).body).toMatchObject({ activate: false, reason: 'claimed' });
    await controller.publish(`${prefix}/actuators/${id}/activated`, '');
    await eventually(async () => (await dosesOf(id))[0]?.reported === true, 'the report to complete the claim');
    expect(await dosesOf(id)).toHaveLength(1);
  });

  it('http controller: the state topic describes the decision and makes no claim', async () => {
    const id = await pumpThatWantsToRun('http');
    await eventually(() => statesOf(id).some((s) => s.activate === true), 'the descriptive state');
    expect(await dosesOf(id)).toEqual([]);
    // The poll of its controller is what claims.
    expect((await service.get(`/actuators/${id}/state`)).body).toMatchObject({ activate: true });
    expect(await dosesOf(id)).toHaveLength(1);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { scratchDatabase, storeKinds } from '../helpers/stores.js';

/**
 * Demo data never drives a pump (docs/safety.md): `POST /Measurement/Random` is refused (409,
 * nothing written) while an enabled actuator reads a sensor it would write to; `prototype_id`
 * keeps it to one tank; and generated rows never lift the restart hold.
 */
const ph = (prototypeId: number) => ({
  sensor_type: 'ph',
  prototype_id: prototypeId,
  sensor_unit: 'pH',
  threshold_critically_low: 4,
  threshold_low: 5.5,
  threshold_high: 7,
  threshold_critically_high: 8,
});
const pump = (sensorId: number, fields: Record<string, unknown> = {}) => ({
  actuator_type: 'acid_pump',
  sensor_id: sensorId,
  condition_value: 6.5,
  activation_condition: 'high',
  activation_period: 0,
  activation_duration: 2,
  ...fields,
});

describe.each(storeKinds())('synthetic data scoped to the tank (%s)', (kind) => {
  let service: TestService;
  let lettuce: number;
  let basil: number;
  let acid: number;
  let guarded: number;
  beforeAll(async () => {
    service = await startService(kind, { env: { SEED_DEFAULTS: 'false' } });
    for (const [id, name] of [
      [7, 'Lettuce NFT'],
      [8, 'Basil'],
    ] as const) {
      expect((await service.post('/prototypes', { prototype_id: id, prototype_name: name })).status).toBe(200);
    }
    lettuce = (await service.post('/sensors/', ph(7))).body.sensor_id;
    basil = (await service.post('/sensors/', ph(8))).body.sensor_id;
    acid = (await service.post('/actuators', pump(lettuce, { actuator_name: 'Lettuce acid' }))).body.actuator_id;
    // A pump of the other tank, interlocked on the first tank's sensor, is disabled for now.
    guarded = (
      await service.post(
        '/actuators',
        pump(basil, { enabled: false, interlocks: [{ sensor_id: lettuce, block_below: 5 }], actuator_name: 'Basil acid' }),
      )
    ).body.actuator_id;
    expect((await service.post('/measurements', [{ sensor_id: lettuce, value: 6.9 }])).status).toBe(200);
  });
  afterAll(() => service?.close());

  const readings = async (sensorId: number) => (await service.get(`/measurements/${sensorId}`)).body as { value: number }[];

  it('refuses every tank while a pump is enabled on one: 409 naming it, nothing written', async () => {
    const res = await service.post('/Measurement/Random', { nb_measurements: 20 });
    expect(res.status).toBe(409);
    expect(res.body.detail).toContain('Lettuce acid');
    expect(res.body.detail).toContain(`#${acid}`);
    expect(await readings(lettuce)).toHaveLength(1);
    expect(await readings(basil)).toHaveLength(0);
  });

  it('with prototype_id writes only that tank, and replaces only its readings', async () => {
    const res = await service.post('/Measurement/Random', { nb_measurements: 20, prototype_id: 8 });
    expect(res.status, res.text).toBe(200);
    expect(res.body.generated).toBe(20);
    expect(await readings(basil)).toHaveLength(20);
    expect(await readings(lettuce)).toMatchObject([{ value: 6.9 }]);
    // Again: the tank's own rows replaced, the other tank's kept.
    const again = await service.post('/Measurement/Random', { nb_measurements: 10, prototype_id: '8' });
    expect(again.body).toMatchObject({ generated: 10, deleted: 20 });
    expect(await readings(basil)).toHaveLength(10);
    expect(await readings(lettuce)).toHaveLength(1);
  });

  it('refuses a tank whose sensor is the interlock of an enabled pump of another tank', async () => {
    expect((await service.patch('/actuators', [{ actuator_id: guarded, enabled: true }])).status).toBe(200);
    expect((await service.patch('/actuators', [{ actuator_id: acid, enabled: false }])).status).toBe(200);
    const res = await service.post('/Measurement/Random', { nb_measurements: 5, prototype_id: 7 });
    expect(res.status).toBe(409);
    expect(res.body.detail).toContain('Basil acid');
    expect(await readings(lettuce)).toHaveLength(1);
    expect((await service.patch('/actuators', [{ actuator_id: guarded, enabled: false }])).status).toBe(200);
  });

  it('422 for an unknown or ill-typed prototype_id, nothing written', async () => {
    for (const prototype_id of [9999, -1, 'abc', 1.5, null]) {
      const res = await service.post('/Measurement/Random', { nb_measurements: 5, prototype_id });
      expect(res.status, JSON.stringify(prototype_id)).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['body', 'prototype_id']);
    }
    expect(await readings(lettuce)).toHaveLength(1);
    expect(await readings(basil)).toHaveLength(10);
  });
});

describe.each(storeKinds())('generated rows and the restart hold (%s)', (kind) => {
  it('never count as a fresh reading: the pump waits for a real one', async () => {
    const database = await scratchDatabase(kind);
    let service: TestService | undefined;
    try {
      service = await startService(kind, { database, env: { SEED_DEFAULTS: 'false' } });
      await service.post('/prototypes', { prototype_id: 7, prototype_name: 'tank' });
      const sensor = (await service.post('/sensors/', ph(7))).body.sensor_id;
      const id = (await service.post('/actuators', pump(sensor, { enabled: false }))).body.actuator_id;
      await service.post('/measurements', { sensor_id: sensor, value: 7.5 });
      await service.close();

      service = await startService(kind, { database, env: { SEED_DEFAULTS: 'false' } });
      const res = await service.post('/Measurement/Random', { nb_measurements: 50, prototype_id: 7, replace: false });
      expect(res.status, res.text).toBe(200);
      expect((await service.patch('/actuators', [{ actuator_id: id, enabled: true }])).status).toBe(200);
      expect((await service.get(`/actuators/${id}/state`)).body).toMatchObject({ activate: false, reason: 'restarted' });
      // Generated again while the process runs (the pump disabled meanwhile): still not a reading to act on.
      await service.patch('/actuators', [{ actuator_id: id, enabled: false }]);
      expect((await service.post('/Measurement/Random', { nb_measurements: 50, prototype_id: 7 })).status).toBe(200);
      await service.patch('/actuators', [{ actuator_id: id, enabled: true }]);
      expect((await service.get(`/actuators/${id}/state`)).body).toMatchObject({ activate: false, reason: 'restarted' });

      await service.post('/measurements', { sensor_id: sensor, value: 7.5 });
      expect((await service.get(`/actuators/${id}/state`)).body).toMatchObject({ activate: true, reason: 'ok' });
    } finally {
      await service?.close();
      await database.drop();
    }
  });
});

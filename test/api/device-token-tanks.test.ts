import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';
import { tokenFor } from '../helpers/tokens.js';

/**
 * Device tokens scoped to tanks: `prototype_ids` on creation (422 for an unknown one, nothing
 * written), shown in the listing; such a token is refused (403) for any prototype, sensor,
 * actuator or measurement of another tank, reads and writes, and for what spans every tank.
 */
const sensor = (prototypeId: number) => ({
  sensor_type: 'ph',
  prototype_id: prototypeId,
  sensor_unit: 'pH',
  threshold_critically_low: 4,
  threshold_low: 5.5,
  threshold_high: 7,
  threshold_critically_high: 8,
});
const pump = (sensorId: number) => ({
  actuator_type: 'acid_pump',
  sensor_id: sensorId,
  condition_value: 6.5,
  activation_condition: 'high',
  activation_period: 60,
  activation_duration: 2,
  enabled: false,
});

describe.each(storeKinds())('device tokens scoped to tanks (%s)', (kind) => {
  let service: TestService;
  let admin: string;
  let scoped: string;
  let everywhere: string;
  const s: Record<number, number> = {};
  const a: Record<number, number> = {};

  beforeAll(async () => {
    service = await startService(kind, { env: { AUTH_MODE: 'enforced', SEED_DEFAULTS: 'false' } });
    admin = await tokenFor(service.store, 'admin', 31);
    await tokenFor(service.store, 'pi', 1 | 2 | 4);
    for (const id of [7, 8]) {
      expect((await service.post('/prototypes', { prototype_id: id, prototype_name: `tank ${id}` }, { token: admin })).status).toBe(200);
      s[id] = (await service.post('/sensors/', sensor(id), { token: admin })).body.sensor_id;
      a[id] = (await service.post('/actuators', pump(s[id]), { token: admin })).body.actuator_id;
    }
  });
  afterAll(() => service?.close());

  const tokensOfPi = async () => (await service.get('/users/pi/tokens', { token: admin })).body as Record<string, unknown>[];

  it('is made with prototype_ids, shown in the listing; null or left out: every tank', async () => {
    const made = await service.post('/users/pi/tokens', { name: 'tank 7 controller', days: 30, prototype_ids: [7] }, { token: admin });
    expect(made.status, made.text).toBe(200);
    expect(made.body.prototype_ids).toEqual([7]);
    scoped = made.body.access_token;
    const all = await service.post('/users/pi/tokens', { name: 'anywhere', days: 30 }, { token: admin });
    expect(all.body.prototype_ids).toBeNull();
    everywhere = all.body.access_token;
    expect((await tokensOfPi()).map((t) => [t.name, t.prototype_ids])).toEqual([
      ['tank 7 controller', [7]],
      ['anywhere', null],
    ]);
  });

  it('refuses unknown or ill-typed prototype_ids with 422, making no token', async () => {
    const before = await tokensOfPi();
    for (const prototype_ids of [[9999], [7, 9999], ['x'], [-1], [], 7]) {
      const res = await service.post('/users/pi/tokens', { name: 'bad', days: 30, prototype_ids }, { token: admin });
      expect(res.status, JSON.stringify(prototype_ids)).toBe(422);
      expect(res.body.detail[0].loc.slice(0, 2)).toEqual(['body', 'prototype_ids']);
    }
    expect(await tokensOfPi()).toEqual(before);
  });

  it('reaches its own tank', async () => {
    expect((await service.get('/sensors/7', { token: scoped })).status).toBe(200);
    expect((await service.get('/prototypes/7', { token: scoped })).status).toBe(200);
    expect((await service.get(`/actuators/${a[7]}/state`, { token: scoped })).status).toBe(200);
    expect((await service.post('/measurements', { sensor_id: s[7], value: 6.8 }, { token: scoped })).status).toBe(200);
    expect((await service.get(`/measurements/${s[7]}`, { token: scoped })).status).toBe(200);
    expect((await service.get('/users/items/', { token: scoped })).status).toBe(200);
  });

  it('is refused (403) for another tank, reads and writes, and nothing is written', async () => {
    const refused: [string, string, unknown?][] = [
      ['GET', '/sensors/8'],
      ['GET', '/prototypes/8'],
      ['GET', '/actuators/8'],
      ['GET', `/actuators/${a[8]}/state`],
      ['GET', `/measurements/${s[8]}`],
      ['GET', `/measurements/${s[8]}/last`],
      ['PATCH', `/actuators/${a[8]}/last_activated`],
      ['POST', '/measurements', { sensor_id: s[8], value: 7 }],
      [
        'POST',
        '/measurements',
        [
          { sensor_id: s[7], value: 7 },
          { sensor_id: String(s[8]), value: 7 },
        ],
      ],
      ['PATCH', '/actuators', [{ actuator_id: a[8], enabled: true }]],
      ['PATCH', '/actuators', [{ actuator_id: a[7], sensor_id: s[8] }]],
      ['PATCH', '/sensors', [{ sensor_id: s[7], prototype_id: 8 }]],
      ['POST', '/sensors/', sensor(8)],
      // What spans every tank.
      ['GET', '/prototypes'],
      ['GET', '/measurements/export'],
      ['POST', '/Measurement/Random', { nb_measurements: 10 }],
    ];
    const before = {
      measurements8: (await service.get(`/measurements/${s[8]}`, { token: admin })).body,
      measurements7: (await service.get(`/measurements/${s[7]}`, { token: admin })).body,
      actuators: [(await service.get('/actuators/7', { token: admin })).body, (await service.get('/actuators/8', { token: admin })).body],
      sensors: [(await service.get('/sensors/7', { token: admin })).body, (await service.get('/sensors/8', { token: admin })).body],
    };
    for (const [method, path, body] of refused) {
      const res = await service.request(method, path, { token: scoped, json: body } as never);
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}: ${res.text}`).toBe(403);
      expect(res.body.detail).toMatch(/limited to prototype 7/);
    }
    expect({
      measurements8: (await service.get(`/measurements/${s[8]}`, { token: admin })).body,
      measurements7: (await service.get(`/measurements/${s[7]}`, { token: admin })).body,
      actuators: [(await service.get('/actuators/7', { token: admin })).body, (await service.get('/actuators/8', { token: admin })).body],
      sensors: [(await service.get('/sensors/7', { token: admin })).body, (await service.get('/sensors/8', { token: admin })).body],
    }).toEqual(before);
  });

  it('a token for every tank still reaches every tank', async () => {
    expect((await service.get('/sensors/8', { token: everywhere })).status).toBe(200);
    expect((await service.get('/prototypes', { token: everywhere })).status).toBe(200);
  });
});

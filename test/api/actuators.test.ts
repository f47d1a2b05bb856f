import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';

const NOW = Date.UTC(2026, 10, 22, 12);
const iso = (ms: number) => new Date(ms).toISOString();
const pump = {
  actuator_type: 'base_pump',
  sensor_id: 2,
  condition_value: 5.5,
  activation_condition: 'low',
  activation_period: 60,
  activation_duration: 3,
};

describe.each(storeKinds())('actuators (%s)', (kind) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService(kind);
    service.clock.now = NOW;
    await service.post('/prototypes', { prototype_id: 5, prototype_name: 'empty' });
  });
  afterAll(() => service?.close());

  const list = async () => (await service.get('/actuators/0')).body;

  it('lists the default pump of prototype 0', async () => {
    const res = await service.get('/actuators/0');
    expect(res.status).toBe(200);
    expect(res.body[0]).toMatchObject({
      actuator_id: 1, actuator_type: 'acid_pump', sensor_id: 1, condition_value: 0, activation_condition: 'low',
      activation_period: 5, activation_duration: 2, actuator_name: null, enabled: true,
    });
    expect((await service.get('/actuators/5')).body).toEqual([]);
    expect((await service.get('/actuators/404')).status).toBe(404);
  });

  it('creates an actuator with 201, enabled by default, last_activated at creation', async () => {
    const res = await service.post('/actuators', { ...pump, sensor_id: '2' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ ...pump, actuator_id: expect.any(Number), actuator_name: null, enabled: true, last_activated: iso(NOW) });
    const named = await service.post('/actuators', { ...pump, actuator_name: 'Base doser', enabled: false });
    expect(named.body).toMatchObject({ actuator_name: 'Base doser', enabled: false });
    const ids = (await list()).map((a: { actuator_id: number }) => a.actuator_id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids).toContain(res.body.actuator_id);
  });

  it.each([
    ['a negative period', { activation_period: -1 }, ['body', 'activation_period']],
    ['a negative duration', { activation_duration: -0.5 }, ['body', 'activation_duration']],
    ['an unknown type', { actuator_type: 'water_pump' }, ['body', 'actuator_type']],
    ['an unknown condition', { activation_condition: 'sometimes' }, ['body', 'activation_condition']],
    ['a missing condition value', { condition_value: undefined }, ['body', 'condition_value']],
    ['a text condition value', { condition_value: 'low' }, ['body', 'condition_value']],
    ['a non-boolean enabled', { enabled: 'yes' }, ['body', 'enabled']],
  ])('refuses %s with 422 and writes nothing', async (_name, change, loc) => {
    const before = await list();
    const res = await service.post('/actuators', { ...pump, ...change });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc })]));
    expect(await list()).toEqual(before);
  });

  it('answers 404 for an unknown sensor and writes nothing', async () => {
    const before = await list();
    const res = await service.post('/actuators', { ...pump, sensor_id: 999 });
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe('Sensor 999 not found');
    expect(await list()).toEqual(before);
  });

  describe('PATCH /actuators', () => {
    it('takes back the whole objects the dashboard was given, ignoring last_activated', async () => {
      const given = await list();
      service.clock.now = NOW + 1000;
      const edited = given.map((a: Record<string, unknown>) => ({ ...a, condition_value: 4.2, last_activated: '2000-01-01T00:00:00Z' }));
      const res = await service.patch('/actuators', edited);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(given.map((a: Record<string, unknown>) => ({ ...a, condition_value: 4.2 })));
      service.clock.now = NOW;
    });

    it('updates only the given fields, in request order', async () => {
      const a = (await service.post('/actuators', pump)).body;
      const b = (await service.post('/actuators', pump)).body;
      const res = await service.patch('/actuators/', [
        { actuator_id: b.actuator_id, enabled: false },
        { actuator_id: String(a.actuator_id), actuator_name: 'renamed', sensor_id: 3 },
      ]);
      expect(res.body).toEqual([{ ...b, enabled: false }, { ...a, actuator_name: 'renamed', sensor_id: 3 }]);
      expect((await service.patch('/actuators', [])).body).toEqual([]);
    });

    it.each([
      ['an unknown actuator', (id: number) => [{ actuator_id: id, condition_value: 1 }, { actuator_id: 9999, condition_value: 1 }], 404],
      ['an unknown sensor', (id: number) => [{ actuator_id: id, condition_value: 1 }, { actuator_id: id, sensor_id: 9999 }], 404],
      ['a negative period', (id: number) => [{ actuator_id: id, condition_value: 1 }, { actuator_id: id, activation_period: -5 }], 422],
      ['a missing actuator_id', (id: number) => [{ actuator_id: id, condition_value: 1 }, { condition_value: 1 }], 422],
    ])('is all-or-nothing: %s changes nothing', async (_name, body, status) => {
      const created = (await service.post('/actuators', pump)).body;
      const before = await list();
      const res = await service.patch('/actuators', body(created.actuator_id));
      expect(res.status).toBe(status);
      expect(await list()).toEqual(before);
    });
  });

  describe('state and last_activated', () => {
    it('follows the decision rules over HTTP', async () => {
      const ph = (await service.post('/sensors/', {
        sensor_type: 'ph', prototype_id: 5, sensor_unit: 'pH',
        threshold_critically_low: 0, threshold_low: 5, threshold_high: 7, threshold_critically_high: 14,
      })).body.sensor_id;
      const id = (await service.post('/actuators', { ...pump, sensor_id: ph })).body.actuator_id;
      const state = async () => (await service.get(`/actuators/${id}/state`)).body;

      expect(await state()).toEqual({ activate: false, status: 'No measurement for the sensor', duration: 3, period: 60 });
      await service.post('/measurements', { sensor_id: ph, value: 5.0, timestamp: iso(NOW - 25 * 3600_000) });
      expect((await state()).status).toMatch(/possibly disconnected/);
      await service.post('/measurements', { sensor_id: ph, value: 5.0 });
      expect((await state()).status).toBe('Activation period not elapsed');
      service.clock.now = NOW + 60_000;
      expect(await state()).toEqual({ activate: true, status: 'OK', duration: 3, period: 60 });
      await service.patch('/actuators', [{ actuator_id: id, enabled: false }]);
      expect(await state()).toMatchObject({ activate: false, status: 'Actuator disabled' });
      service.clock.now = NOW;
    });

    it('answers 404 for an unknown actuator and 422 for a bad id', async () => {
      expect((await service.get('/actuators/9999/state')).status).toBe(404);
      expect((await service.get('/actuators/x/state')).status).toBe(422);
      expect((await service.request('PATCH', '/actuators/9999/last_activated')).status).toBe(404);
      expect((await service.request('PATCH', '/actuators/-1/last_activated')).status).toBe(422);
    });

    it('moves last_activated to now with no body, an empty form body or an empty JSON body', async () => {
      const id = (await service.post('/actuators', pump)).body.actuator_id;
      const bodies = [
        {},
        { headers: { 'content-type': 'application/x-www-form-urlencoded' }, raw: '' },
        { headers: { 'content-type': 'application/json' }, raw: '' },
        { headers: { 'content-type': 'application/json' }, raw: '{}' },
      ];
      for (const [i, options] of bodies.entries()) {
        service.clock.now = NOW + (i + 1) * 1000;
        const res = await service.request('PATCH', `/actuators/${id}/last_activated`, options);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ actuator_id: id, last_activated: iso(NOW + (i + 1) * 1000) });
      }
      service.clock.now = NOW;
    });

    it('keeps answering 415 to form bodies on the other actuator routes', async () => {
      const res = await service.request('POST', '/actuators', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, raw: 'sensor_id=1' });
      expect(res.status).toBe(415);
    });
  });
});

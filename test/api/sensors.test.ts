import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';
import { sensorTrustDefaults } from '../helpers/bodies.js';

const phSensor = {
  sensor_type: 'ph',
  prototype_id: 0,
  sensor_unit: 'pH',
  threshold_critically_low: 4,
  threshold_low: 5.5,
  threshold_high: 6.5,
  threshold_critically_high: 8,
};

describe.each(storeKinds())('sensors (%s)', (kind) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService(kind);
    await service.post('/prototypes', { prototype_id: 1, prototype_name: 'tank' });
  });
  afterAll(() => service?.close());

  const sensorsOf = async (prototypeId: number) => (await service.get(`/sensors/${prototypeId}`)).body;

  it('lists the default sensors of prototype 0 by sensor_id', async () => {
    const res = await service.get('/sensors/0');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        sensor_id: 1,
        sensor_type: 'ec',
        prototype_id: 0,
        sensor_unit: 'mS/cm',
        threshold_critically_low: 0,
        threshold_low: 1,
        threshold_high: 2,
        threshold_critically_high: 3,
        ...sensorTrustDefaults,
      },
      {
        sensor_id: 2,
        sensor_type: 'ph',
        prototype_id: 0,
        sensor_unit: 'pH',
        threshold_critically_low: 0,
        threshold_low: 4,
        threshold_high: 7,
        threshold_critically_high: 10,
        ...sensorTrustDefaults,
      },
      {
        sensor_id: 3,
        sensor_type: 'temperature',
        prototype_id: 0,
        sensor_unit: 'Celsius',
        threshold_critically_low: 0,
        threshold_low: 10,
        threshold_high: 30,
        threshold_critically_high: 40,
        ...sensorTrustDefaults,
      },
    ]);
  });

  it('creates a sensor with 200 and a server-assigned id, with and without the trailing slash', async () => {
    const res = await service.post('/sensors/', { ...phSensor, prototype_id: 1, unknown: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...phSensor, ...sensorTrustDefaults, prototype_id: 1, sensor_id: expect.any(Number) });
    const again = await service.post('/sensors', { ...phSensor, prototype_id: '1', threshold_low: '5' });
    expect(again.status).toBe(200);
    expect(again.body.threshold_low).toBe(5);
    expect(again.body.sensor_id).toBeGreaterThan(res.body.sensor_id);
    const listed = await sensorsOf(1);
    expect(listed.map((s: { sensor_id: number }) => s.sensor_id)).toEqual([res.body.sensor_id, again.body.sensor_id]);
  });

  it('keeps an optional sensor_name on create, patch and read; 422 for a bad one, nothing written', async () => {
    const created = await service.post('/sensors/', { ...phSensor, prototype_id: 1, sensor_name: 'Tank pH' });
    expect(created.status).toBe(200);
    expect(created.body.sensor_name).toBe('Tank pH');
    const id = created.body.sensor_id;
    const named = async () => (await sensorsOf(1)).find((s: { sensor_id: number }) => s.sensor_id === id).sensor_name;
    expect(await named()).toBe('Tank pH');
    expect((await service.post('/sensors/', { ...phSensor, prototype_id: 1 })).body.sensor_name).toBeNull();
    const renamed = await service.patch('/sensors', [{ sensor_id: id, sensor_name: 'Main pH' }]);
    expect(renamed.status).toBe(200);
    expect(renamed.body[0].sensor_name).toBe('Main pH');
    // A patch that leaves the name out keeps it; null takes it away.
    expect((await service.patch('/sensors', [{ sensor_id: id, sensor_unit: 'pH' }])).body[0].sensor_name).toBe('Main pH');
    const before = (await sensorsOf(1)).length;
    for (const sensor_name of ['', 'x'.repeat(101)]) {
      const bad = await service.post('/sensors/', { ...phSensor, prototype_id: 1, sensor_name });
      expect(bad.status).toBe(422);
      expect(bad.body.detail[0].loc).toContain('sensor_name');
      expect((await service.patch('/sensors', [{ sensor_id: id, sensor_name }])).status).toBe(422);
    }
    expect((await sensorsOf(1)).length).toBe(before);
    expect(await named()).toBe('Main pH');
    expect((await service.patch('/sensors', [{ sensor_id: id, sensor_name: null }])).body[0].sensor_name).toBeNull();
  });

  it('accepts equal thresholds', async () => {
    const res = await service.post('/sensors/', {
      ...phSensor,
      threshold_critically_low: 5,
      threshold_low: 5,
      threshold_high: 5,
      threshold_critically_high: 5,
    });
    expect(res.status).toBe(200);
  });

  it('answers 404 for an unknown prototype and writes nothing', async () => {
    const res = await service.post('/sensors/', { ...phSensor, prototype_id: 404 });
    expect(res.status).toBe(404);
    expect(res.body.detail).toMatch(/Prototype 404/);
    expect((await service.get('/sensors/404')).status).toBe(404);
  });

  it.each([
    ['thresholds out of order (low > high)', { threshold_low: 7 }, ['body']],
    ['critically_low above low', { threshold_critically_low: 6 }, ['body']],
    ['high above critically_high', { threshold_high: 9 }, ['body']],
    ['an unknown sensor type', { sensor_type: 'co2' }, ['body', 'sensor_type']],
    ['a missing threshold', { threshold_high: undefined }, ['body', 'threshold_high']],
    ['a non-numeric threshold', { threshold_high: 'high' }, ['body', 'threshold_high']],
    ['a null threshold', { threshold_low: null }, ['body', 'threshold_low']],
    ['a boolean threshold', { threshold_low: true }, ['body', 'threshold_low']],
    ['a threshold that overflows to Infinity', { threshold_critically_high: '1e999' }, ['body', 'threshold_critically_high']],
    ['an empty unit', { sensor_unit: '' }, ['body', 'sensor_unit']],
    ['a unit over 32 characters', { sensor_unit: 'u'.repeat(33) }, ['body', 'sensor_unit']],
    ['a negative prototype id', { prototype_id: -1 }, ['body', 'prototype_id']],
    ['a fractional prototype id in a string', { prototype_id: '1.5' }, ['body', 'prototype_id']],
  ])('rejects %s with 422 and writes nothing', async (_name, change, loc) => {
    const before = await sensorsOf(1);
    const res = await service.post('/sensors/', { ...phSensor, prototype_id: 1, ...change });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc })]));
    expect(await sensorsOf(1)).toEqual(before);
  });

  it('rejects a body that is not an object', async () => {
    for (const body of [[phSensor], 'text', 42]) {
      const res = await service.post('/sensors/', body);
      expect(res.status).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['body']);
    }
    const empty = await service.request('POST', '/sensors/');
    expect(empty.status).toBe(422);
  });

  it('answers 422 for a non-integer prototype id in the path', async () => {
    for (const id of ['abc', '1.5', '-3', '99999999999']) {
      const res = await service.get(`/sensors/${id}`);
      expect(res.status).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['path', 'prototype_id']);
    }
  });

  describe('PATCH /sensors', () => {
    it('updates only the given fields, in request order, ignoring unknown fields', async () => {
      const a = (await service.post('/sensors/', { ...phSensor, prototype_id: 1 })).body;
      const b = (await service.post('/sensors/', { ...phSensor, prototype_id: 1, sensor_type: 'ec', sensor_unit: 'mS/cm' })).body;
      const res = await service.patch('/sensors', [
        { sensor_id: String(b.sensor_id), sensor_unit: 'µS/cm', whatever: 1 },
        { sensor_id: a.sensor_id, threshold_high: 7, threshold_critically_high: 9 },
      ]);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([
        { ...b, sensor_unit: 'µS/cm' },
        { ...a, threshold_high: 7, threshold_critically_high: 9 },
      ]);
      expect((await service.get('/sensors/1')).body).toEqual(expect.arrayContaining([{ ...b, sensor_unit: 'µS/cm' }]));
      expect((await service.patch('/sensors/', [])).body).toEqual([]);
    });

    it('moves a sensor to another existing prototype', async () => {
      await service.post('/prototypes', { prototype_id: 2, prototype_name: 'other' });
      const s = (await service.post('/sensors/', { ...phSensor, prototype_id: 1 })).body;
      const res = await service.patch('/sensors', [{ sensor_id: s.sensor_id, prototype_id: 2 }]);
      expect(res.status).toBe(200);
      expect((await sensorsOf(2)).map((x: { sensor_id: number }) => x.sensor_id)).toEqual([s.sensor_id]);
    });

    it.each([
      [
        'an unknown sensor',
        (id: number) => [
          { sensor_id: id, sensor_unit: 'x' },
          { sensor_id: 9999, sensor_unit: 'y' },
        ],
        404,
      ],
      [
        'an unknown prototype',
        (id: number) => [
          { sensor_id: id, sensor_unit: 'x' },
          { sensor_id: id, prototype_id: 777 },
        ],
        404,
      ],
      [
        'thresholds out of order after merging',
        (id: number) => [
          { sensor_id: id, sensor_unit: 'x' },
          { sensor_id: id, threshold_low: 100 },
        ],
        422,
      ],
      [
        'an invalid field in a later element',
        (id: number) => [
          { sensor_id: id, sensor_unit: 'x' },
          { sensor_id: id, sensor_type: 'radar' },
        ],
        422,
      ],
      ['a missing sensor_id', (id: number) => [{ sensor_id: id, sensor_unit: 'x' }, { sensor_unit: 'y' }], 422],
    ])('is all-or-nothing: %s changes nothing', async (_name, makeBody, status) => {
      const s = (await service.post('/sensors/', { ...phSensor, prototype_id: 1 })).body;
      const before = await sensorsOf(1);
      const res = await service.patch('/sensors', makeBody(s.sensor_id));
      expect(res.status).toBe(status);
      expect(await sensorsOf(1)).toEqual(before);
    });

    it('points at the element that breaks the threshold order', async () => {
      const s = (await service.post('/sensors/', { ...phSensor, prototype_id: 1 })).body;
      const res = await service.patch('/sensors', [{ sensor_id: s.sensor_id }, { sensor_id: s.sensor_id, threshold_low: 100 }]);
      expect(res.status).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['body', 1]);
    });

    it('rejects a body that is not an array', async () => {
      const res = await service.patch('/sensors', { sensor_id: 1, sensor_unit: 'x' });
      expect(res.status).toBe(422);
      expect(res.body.detail[0]).toMatchObject({ loc: ['body'], type: 'list_type' });
    });
  });
});

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
/** What every actuator answers about dosing safety and volumes while none of it was set (docs/api.md §14, §15). */
const actuatorSafetyDefaults = {
  max_doses_per_hour: null,
  max_seconds_per_day: null,
  min_response: null,
  response_delay: null,
  lockout_after: 20,
  lockout_reversed_after: 3,
  usual_days: 7,
  usual_window: 21600,
  unusual_factor: 2,
  controller_timeout: null,
  flow_ml_per_s: null,
  max_ml_per_day: null,
  stock_ml: null,
  stock_low_ml: null,
  interlocks: [],
  lockout: null,
  last_polled: null,
  // Dosing that aims: no set point, fixed doses, not sequenced, no schedule.
  setpoint: null,
  band: 0,
  dose_mode: 'fixed',
  dose_fraction: 0.8,
  min_duration: 1,
  max_duration: null,
  initial_gain: null,
  dose_order: null,
  schedule: null,
  learned_gain: null,
  controller: 'http',
};
type Actuator = typeof pump & { actuator_id: number; actuator_name: string | null; enabled: boolean; last_activated: string };

describe.each(storeKinds())('actuators (%s)', (kind) => {
  let service: TestService;
  /** A sensor of prototype 5, so prototype 0's list and prototype 5's list can be told apart. */
  let otherSensor: number;
  beforeAll(async () => {
    service = await startService(kind);
    service.clock.now = NOW;
    await service.post('/prototypes', { prototype_id: 5, prototype_name: 'empty' });
    await service.post('/prototypes', { prototype_id: 6, prototype_name: 'second tank' });
    otherSensor = (
      await service.post('/sensors/', {
        sensor_type: 'ph',
        prototype_id: 6,
        sensor_unit: 'pH',
        threshold_critically_low: 0,
        threshold_low: 5,
        threshold_high: 7,
        threshold_critically_high: 14,
      })
    ).body.sensor_id;
  });
  afterAll(() => service?.close());

  /** Every actuator the service holds, read back through the API. */
  const everything = async (): Promise<Actuator[]> => [
    ...(await service.get('/actuators/0')).body,
    ...(await service.get('/actuators/6')).body,
  ];
  const create = async (fields: Record<string, unknown> = {}): Promise<Actuator> => {
    const res = await service.post('/actuators', { ...pump, ...fields });
    expect(res.status).toBe(200);
    return res.body;
  };

  describe('GET /actuators/{prototype_id}', () => {
    it('lists the default pump of prototype 0: on the ph sensor, above 6.5, disabled', async () => {
      const res = await service.get('/actuators/0');
      expect(res.status).toBe(200);
      const ph = (await service.get('/sensors/0')).body.find((s: { sensor_type: string }) => s.sensor_type === 'ph');
      expect(res.body[0]).toEqual({
        actuator_id: 1,
        actuator_type: 'acid_pump',
        sensor_id: ph.sensor_id,
        condition_value: 6.5,
        activation_condition: 'high',
        activation_period: 300,
        activation_duration: 2,
        actuator_name: null,
        enabled: false,
        last_activated: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        ...actuatorSafetyDefaults,
      });
    });

    it('answers [] for a prototype without actuators, 404 for an unknown one, 422 for a bad id', async () => {
      expect((await service.get('/actuators/5')).body).toEqual([]);
      expect((await service.get('/actuators/5')).status).toBe(200);
      const missing = await service.get('/actuators/404');
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ detail: 'Prototype 404 not found' });
      const bad = await service.get('/actuators/abc');
      expect(bad.status).toBe(422);
      expect(bad.body.detail[0].loc).toEqual(['path', 'prototype_id']);
      expect((await service.get('/actuators/-1')).status).toBe(422);
    });

    it('lists only the actuators whose sensor belongs to the prototype, by actuator_id', async () => {
      const mine = await create({ sensor_id: otherSensor });
      const theirs = await create({ sensor_id: 3 });
      const later = await create({ sensor_id: otherSensor });
      const six = (await service.get('/actuators/6')).body as Actuator[];
      expect(six.map((a) => a.actuator_id)).toEqual([mine.actuator_id, later.actuator_id]);
      const zero = (await service.get('/actuators/0')).body as Actuator[];
      expect(zero.map((a) => a.actuator_id)).toContain(theirs.actuator_id);
      expect(zero.map((a) => a.actuator_id)).toEqual([...zero.map((a) => a.actuator_id)].sort((a, b) => a - b));
      expect(zero.every((a) => [1, 2, 3].includes(a.sensor_id))).toBe(true);
    });

    it('routes /actuators/{prototype_id} and /actuators/{actuator_id}/state side by side', async () => {
      // Actuator 1 and prototype 1 are different things; prototype 1 does not exist.
      expect((await service.get('/actuators/1')).status).toBe(404);
      const state = await service.get('/actuators/1/state');
      expect(state.status).toBe(200);
      expect(state.body).toMatchObject({ activate: expect.any(Boolean), duration: 2, period: 300 });
      expect((await service.get('/actuators/0/')).status).toBe(200);
      expect((await service.get('/actuators/1/state/')).status).toBe(200);
      expect((await service.get('/actuators/1/nothing')).status).toBe(404);
    });
  });

  describe('POST /actuators', () => {
    it('creates an actuator with 200, enabled by default, no name, last_activated at creation', async () => {
      service.clock.now = NOW + 1234;
      const res = await service.post('/actuators', { ...pump, sensor_id: '2', unknown_field: 'ignored' });
      service.clock.now = NOW;
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...pump,
        actuator_id: expect.any(Number),
        actuator_name: null,
        enabled: true,
        last_activated: iso(NOW + 1234),
        ...actuatorSafetyDefaults,
      });
      expect((await service.get('/actuators/0')).body).toContainEqual(res.body);
    });

    it('keeps a name, enabled false, null name, zero and fractional period and duration', async () => {
      expect(await create({ actuator_name: 'Base doser 🌱', enabled: false })).toMatchObject({
        actuator_name: 'Base doser 🌱',
        enabled: false,
      });
      expect(await create({ actuator_name: null })).toMatchObject({ actuator_name: null, enabled: true });
      expect(await create({ activation_period: 0, activation_duration: 0 })).toMatchObject({
        activation_period: 0,
        activation_duration: 0,
      });
      const fractional = await create({ activation_period: 0.25, activation_duration: 1.5, condition_value: -3.75 });
      expect(fractional).toMatchObject({ activation_period: 0.25, activation_duration: 1.5, condition_value: -3.75 });
      expect((await service.get('/actuators/0')).body).toContainEqual(fractional);
    });

    it.each(['acid_pump', 'base_pump', 'nutrients_A_pump', 'nutrients_B_pump'])('accepts the type %s', async (actuator_type) => {
      expect((await create({ actuator_type })).actuator_type).toBe(actuator_type);
    });

    it.each(['high', 'low', 'low_or_high', 'always'])('accepts the condition %s', async (activation_condition) => {
      expect((await create({ activation_condition })).activation_condition).toBe(activation_condition);
    });

    it.each([
      ['a negative period', { activation_period: -1 }, ['body', 'activation_period']],
      ['a negative duration', { activation_duration: -0.5 }, ['body', 'activation_duration']],
      ['an unknown type', { actuator_type: 'water_pump' }, ['body', 'actuator_type']],
      ['an unknown condition', { activation_condition: 'sometimes' }, ['body', 'activation_condition']],
      ['a condition in the wrong case', { activation_condition: 'HIGH' }, ['body', 'activation_condition']],
      ['a missing type', { actuator_type: undefined }, ['body', 'actuator_type']],
      ['a missing sensor', { sensor_id: undefined }, ['body', 'sensor_id']],
      ['a missing condition value', { condition_value: undefined }, ['body', 'condition_value']],
      ['a missing condition', { activation_condition: undefined }, ['body', 'activation_condition']],
      ['a missing period', { activation_period: undefined }, ['body', 'activation_period']],
      ['a missing duration', { activation_duration: undefined }, ['body', 'activation_duration']],
      ['a text condition value', { condition_value: 'low' }, ['body', 'condition_value']],
      ['a null condition value', { condition_value: null }, ['body', 'condition_value']],
      ['an overflowing numeric string', { activation_period: '1e999' }, ['body', 'activation_period']],
      ['a negative sensor id', { sensor_id: -2 }, ['body', 'sensor_id']],
      ['a fractional sensor id', { sensor_id: 2.5 }, ['body', 'sensor_id']],
      ['a non-boolean enabled', { enabled: 'yes' }, ['body', 'enabled']],
      ['a number as name', { actuator_name: 12 }, ['body', 'actuator_name']],
      ['a name over 200 characters', { actuator_name: 'x'.repeat(201) }, ['body', 'actuator_name']],
    ])('refuses %s with 422 and writes nothing', async (_name, change, loc) => {
      const before = await everything();
      const res = await service.post('/actuators', { ...pump, ...change });
      expect(res.status).toBe(422);
      expect(res.body.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc })]));
      expect(await everything()).toEqual(before);
    });

    it('lists every problem of a body at once', async () => {
      const res = await service.post('/actuators', { actuator_type: 'pump', activation_period: -1 });
      expect(res.status).toBe(422);
      const locs = res.body.detail.map((d: { loc: string[] }) => d.loc.join('.'));
      expect(locs).toEqual(
        expect.arrayContaining([
          'body.actuator_type',
          'body.sensor_id',
          'body.condition_value',
          'body.activation_condition',
          'body.activation_period',
          'body.activation_duration',
        ]),
      );
    });

    it('answers 404 for an unknown sensor and writes nothing', async () => {
      const before = await everything();
      const res = await service.post('/actuators', { ...pump, sensor_id: 999 });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Sensor 999 not found' });
      expect(await everything()).toEqual(before);
    });

    it('refuses a form, a text body, malformed JSON and an array, writing nothing', async () => {
      const before = await everything();
      const form = await service.request('POST', '/actuators', {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        raw: 'actuator_type=acid_pump&sensor_id=1&condition_value=1&activation_condition=low&activation_period=1&activation_duration=1',
      });
      expect(form.status).toBe(415);
      expect(
        (await service.request('POST', '/actuators', { headers: { 'content-type': 'text/plain' }, raw: JSON.stringify(pump) })).status,
      ).toBe(415);
      expect(
        (await service.request('POST', '/actuators', { headers: { 'content-type': 'application/json' }, raw: '{"actuator_type":' })).status,
      ).toBe(400);
      expect((await service.post('/actuators', [pump])).status).toBe(422);
      expect(await everything()).toEqual(before);
    });
  });

  describe('PATCH /actuators', () => {
    it('takes back the whole objects the dashboard was given: last_activated ignored, edits kept', async () => {
      const given = (await service.get('/actuators/0')).body as Actuator[];
      service.clock.now = NOW + 1000;
      const edited = given.map((a) => ({ ...a, condition_value: 4.2, last_activated: '2000-01-01T00:00:00Z' }));
      const res = await service.patch('/actuators', edited);
      service.clock.now = NOW;
      expect(res.status).toBe(200);
      const expected = given.map((a) => ({ ...a, condition_value: 4.2 }));
      expect(res.body).toEqual(expected);
      expect((await service.get('/actuators/0')).body).toEqual(expected);
    });

    it('ignores a last_activated that is not even a date, and any unknown field', async () => {
      const a = await create();
      const res = await service.patch('/actuators', [{ ...a, last_activated: 'yesterday', colour: 'red', activation_duration: 9 }]);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([{ ...a, activation_duration: 9 }]);
    });

    it('updates only the given fields, in request order, with numeric strings converted', async () => {
      const a = await create();
      const b = await create();
      const res = await service.patch('/actuators/', [
        { actuator_id: b.actuator_id, enabled: false },
        { actuator_id: String(a.actuator_id), actuator_name: 'renamed', sensor_id: '3' },
      ]);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([
        { ...b, enabled: false },
        { ...a, actuator_name: 'renamed', sensor_id: 3 },
      ]);
      const back = await service.patch('/actuators', [{ actuator_id: a.actuator_id, actuator_name: null, enabled: true }]);
      expect(back.body).toEqual([{ ...a, sensor_id: 3, actuator_name: null }]);
      const listed = (await service.get('/actuators/0')).body as Actuator[];
      expect(listed).toContainEqual({ ...b, enabled: false });
      expect(listed).toContainEqual({ ...a, sensor_id: 3, actuator_name: null });
    });

    it('changes every ActuatorBase field and moves an actuator to a sensor of another prototype', async () => {
      const a = await create();
      const change = {
        actuator_type: 'nutrients_B_pump',
        sensor_id: otherSensor,
        condition_value: 1.25,
        activation_condition: 'always',
        activation_period: 0.5,
        activation_duration: 0,
        actuator_name: 'moved',
        enabled: false,
      };
      const res = await service.patch('/actuators', [{ actuator_id: a.actuator_id, ...change }]);
      expect(res.body).toEqual([{ ...a, ...change }]);
      expect((await service.get('/actuators/0')).body.map((x: Actuator) => x.actuator_id)).not.toContain(a.actuator_id);
      expect((await service.get('/actuators/6')).body).toContainEqual({ ...a, ...change });
    });

    it('applies two patches of the same actuator in order', async () => {
      const a = await create();
      const res = await service.patch('/actuators', [
        { actuator_id: a.actuator_id, condition_value: 1, actuator_name: 'first' },
        { actuator_id: a.actuator_id, condition_value: 2 },
      ]);
      expect(res.body).toEqual([
        { ...a, condition_value: 1, actuator_name: 'first' },
        { ...a, condition_value: 2, actuator_name: 'first' },
      ]);
    });

    it('answers [] to an empty array', async () => {
      const before = await everything();
      const res = await service.patch('/actuators', []);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
      expect(await everything()).toEqual(before);
    });

    it.each([
      [
        'an unknown actuator',
        (id: number) => [
          { actuator_id: id, condition_value: 1 },
          { actuator_id: 9999, condition_value: 1 },
        ],
        404,
        'Actuator 9999 not found',
      ],
      [
        'an unknown sensor',
        (id: number) => [
          { actuator_id: id, condition_value: 1 },
          { actuator_id: id, sensor_id: 9999 },
        ],
        404,
        'Sensor 9999 not found',
      ],
      [
        'a negative period',
        (id: number) => [
          { actuator_id: id, condition_value: 1 },
          { actuator_id: id, activation_period: -5 },
        ],
        422,
        ['body', 1, 'activation_period'],
      ],
      [
        'a negative duration',
        (id: number) => [
          { actuator_id: id, condition_value: 1 },
          { actuator_id: id, activation_duration: -1 },
        ],
        422,
        ['body', 1, 'activation_duration'],
      ],
      [
        'an unknown type',
        (id: number) => [
          { actuator_id: id, condition_value: 1 },
          { actuator_id: id, actuator_type: 'pump' },
        ],
        422,
        ['body', 1, 'actuator_type'],
      ],
      [
        'an unknown condition',
        (id: number) => [
          { actuator_id: id, condition_value: 1 },
          { actuator_id: id, activation_condition: 'never' },
        ],
        422,
        ['body', 1, 'activation_condition'],
      ],
      [
        'a null enabled',
        (id: number) => [
          { actuator_id: id, condition_value: 1 },
          { actuator_id: id, enabled: null },
        ],
        422,
        ['body', 1, 'enabled'],
      ],
      [
        'a text condition value',
        (id: number) => [
          { actuator_id: id, condition_value: 1 },
          { actuator_id: id, condition_value: 'x' },
        ],
        422,
        ['body', 1, 'condition_value'],
      ],
      [
        'a missing actuator_id',
        (id: number) => [{ actuator_id: id, condition_value: 1 }, { condition_value: 1 }],
        422,
        ['body', 1, 'actuator_id'],
      ],
      [
        'a bad actuator_id',
        (id: number) => [
          { actuator_id: id, condition_value: 1 },
          { actuator_id: 'one', condition_value: 1 },
        ],
        422,
        ['body', 1, 'actuator_id'],
      ],
      ['an object instead of an array', (id: number) => ({ actuator_id: id, condition_value: 1 }), 422, ['body']],
    ])('is all-or-nothing: %s changes nothing', async (_name, body, status, detail) => {
      const created = await create();
      const before = await everything();
      const res = await service.patch('/actuators', body(created.actuator_id));
      expect(res.status).toBe(status);
      if (typeof detail === 'string') expect(res.body).toEqual({ detail });
      else expect(res.body.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc: detail })]));
      expect(await everything()).toEqual(before);
    });

    it('refuses a form body with 415 and writes nothing', async () => {
      const before = await everything();
      const res = await service.request('PATCH', '/actuators', {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        raw: 'actuator_id=1&enabled=false',
      });
      expect(res.status).toBe(415);
      expect(await everything()).toEqual(before);
    });
  });
});

import { basePumpBody } from '../helpers/bodies.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';

const NOW = Date.UTC(2026, 10, 22, 12);
const HOUR = 3600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const STATUS = {
  disabled: 'Actuator disabled',
  noMeasurement: 'No measurement for the sensor',
  stale: 'Last measurement too old: sensor possibly disconnected',
  waiting: 'Activation period not elapsed',
  zeroDuration: 'Activation duration is 0',
  ok: 'OK',
};
const REASON = {
  disabled: 'disabled',
  noMeasurement: 'no_measurement',
  stale: 'stale',
  waiting: 'waiting',
  zeroDuration: 'zero_duration',
  ok: 'ok',
};
type Actuator = { actuator_id: number; sensor_id: number; last_activated: string; [field: string]: unknown };

describe.each(storeKinds())('actuator state and last_activated (%s)', (kind) => {
  let service: TestService;
  beforeAll(async () => {
    // A short STALE_AFTER, so the test also shows the setting reaches the decision.
    service = await startService(kind, { env: { STALE_AFTER: 'PT1H', BODY_LIMIT_BYTES: '2048' } });
    await service.post('/prototypes', { prototype_id: 5, prototype_name: 'tank' });
  });
  beforeEach(() => {
    service.clock.now = NOW;
  });
  afterAll(() => service?.close());

  /** A fresh pH sensor (so no other test's readings reach it) and a pump on it, created at the current clock. */
  async function pumpOnNewSensor(fields: Record<string, unknown> = {}): Promise<{ sensor: number; actuator: Actuator }> {
    const sensor = (
      await service.post('/sensors/', {
        sensor_type: 'ph',
        prototype_id: 5,
        sensor_unit: 'pH',
        threshold_critically_low: 0,
        threshold_low: 5,
        threshold_high: 7,
        threshold_critically_high: 14,
      })
    ).body.sensor_id as number;
    const res = await service.post('/actuators', { ...basePumpBody(sensor), ...fields });
    expect(res.status).toBe(200);
    return { sensor, actuator: res.body };
  }
  const measure = async (sensor: number, value: number, timestamp?: number) => {
    const res = await service.post('/measurements', {
      sensor_id: sensor,
      value,
      ...(timestamp !== undefined && { timestamp: iso(timestamp) }),
    });
    expect(res.status).toBe(200);
  };
  const state = async (id: number) => {
    const res = await service.get(`/actuators/${id}/state`);
    expect(res.status).toBe(200);
    return res.body as { activate: boolean; status: string; reason: string; duration: number; period: number };
  };
  const actuatorsOf5 = async (): Promise<Actuator[]> => (await service.get('/actuators/5')).body;
  const markActivated = (id: number | string, options: Parameters<TestService['request']>[2] = {}) =>
    service.request('PATCH', `/actuators/${id}/last_activated`, options);

  describe('GET /actuators/{actuator_id}/state', () => {
    it('walks every rule in order, each with its status, duration and period', async () => {
      const { sensor, actuator } = await pumpOnNewSensor({ enabled: false, activation_duration: 0 });
      const id = actuator.actuator_id;
      expect(await state(id)).toEqual({ activate: false, status: STATUS.disabled, reason: REASON.disabled, duration: 0, period: 60 });
      await service.patch('/actuators', [{ actuator_id: id, enabled: true }]);
      expect(await state(id)).toEqual({
        activate: false,
        status: STATUS.noMeasurement,
        reason: REASON.noMeasurement,
        duration: 0,
        period: 60,
      });
      await measure(sensor, 5.0, NOW - 2 * HOUR);
      expect(await state(id)).toEqual({ activate: false, status: STATUS.stale, reason: REASON.stale, duration: 0, period: 60 });
      await measure(sensor, 5.0);
      expect(await state(id)).toEqual({ activate: false, status: STATUS.waiting, reason: REASON.waiting, duration: 0, period: 60 });
      service.clock.now = NOW + 60_000;
      expect(await state(id)).toEqual({
        activate: false,
        status: STATUS.zeroDuration,
        reason: REASON.zeroDuration,
        duration: 0,
        period: 60,
      });
      await service.patch('/actuators', [{ actuator_id: id, activation_duration: 3 }]);
      expect(await state(id)).toEqual({ activate: true, status: STATUS.ok, reason: REASON.ok, duration: 3, period: 60 });
      // That answer claimed the dose: until its report (or its run and the grace), other reads are told so.
      expect(await state(id)).toMatchObject({ activate: false, reason: 'claimed', duration: 3, period: 60 });
      await markActivated(id);
      service.clock.now = NOW + 120_000;
      await measure(sensor, 6.0);
      expect(await state(id)).toEqual({ activate: false, status: STATUS.ok, reason: REASON.ok, duration: 3, period: 60 });
    });

    it('a reading exactly STALE_AFTER old is fresh; one millisecond older is stale', async () => {
      const { sensor, actuator } = await pumpOnNewSensor({ activation_period: 0 });
      await measure(sensor, 5.0, NOW);
      service.clock.now = NOW + HOUR;
      expect(await state(actuator.actuator_id)).toMatchObject({ activate: true, status: STATUS.ok, reason: REASON.ok });
      service.clock.now = NOW + HOUR + 1;
      expect(await state(actuator.actuator_id)).toMatchObject({ activate: false, status: STATUS.stale, reason: REASON.stale });
      // A new reading makes it fresh again; the dose claimed an hour in is reported first.
      await markActivated(actuator.actuator_id);
      await measure(sensor, 5.0);
      expect(await state(actuator.actuator_id)).toMatchObject({ activate: true, status: STATUS.ok, reason: REASON.ok });
    });

    it('a period exactly elapsed allows activation; one millisecond earlier does not', async () => {
      const { sensor, actuator } = await pumpOnNewSensor({ activation_period: 2.007 });
      await measure(sensor, 5.0);
      service.clock.now = NOW + 2006;
      expect(await state(actuator.actuator_id)).toMatchObject({ activate: false, status: STATUS.waiting, reason: REASON.waiting });
      service.clock.now = NOW + 2007;
      expect(await state(actuator.actuator_id)).toMatchObject({ activate: true, status: STATUS.ok, reason: REASON.ok, period: 2.007 });
    });

    it.each([
      ['high', 5.5, false],
      ['high', 5.500001, true],
      ['low', 5.5, false],
      ['low', 5.499999, true],
      ['low_or_high', 5.5, false],
      ['low_or_high', 5.4, true],
      ['low_or_high', 5.6, true],
      ['always', 5.5, true],
      ['always', 0, true],
    ])('%s with the newest value %d against 5.5 → activate %s', async (activation_condition, value, activate) => {
      const { sensor, actuator } = await pumpOnNewSensor({ activation_condition, activation_period: 0 });
      await measure(sensor, value);
      expect(await state(actuator.actuator_id)).toEqual({ activate, status: STATUS.ok, reason: REASON.ok, duration: 3, period: 0 });
    });

    it('decides on the reading with the latest timestamp, not the last one posted', async () => {
      const { sensor, actuator } = await pumpOnNewSensor({ activation_period: 0 });
      await measure(sensor, 6.0, NOW - 1000);
      // Posted later, but taken earlier: it must not trigger the pump.
      await measure(sensor, 4.0, NOW - 60_000);
      expect(await state(actuator.actuator_id)).toMatchObject({ activate: false, status: STATUS.ok, reason: REASON.ok });
      await measure(sensor, 4.0, NOW - 500);
      expect(await state(actuator.actuator_id)).toMatchObject({ activate: true, status: STATUS.ok, reason: REASON.ok });
    });

    it('follows the sensor a PATCH moved the actuator to', async () => {
      const { actuator } = await pumpOnNewSensor({ activation_period: 0 });
      const { sensor: other } = await pumpOnNewSensor();
      await measure(other, 4.0);
      expect((await state(actuator.actuator_id)).status).toBe(STATUS.noMeasurement);
      await service.patch('/actuators', [{ actuator_id: actuator.actuator_id, sensor_id: other }]);
      expect(await state(actuator.actuator_id)).toMatchObject({ activate: true, status: STATUS.ok, reason: REASON.ok });
    });

    it('is never cached', async () => {
      const res = await service.get('/actuators/1/state');
      expect(res.headers.get('cache-control')).toBe('no-store');
    });

    it('answers 404 for an unknown actuator and 422 for a bad id', async () => {
      const missing = await service.get('/actuators/9999/state');
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ detail: 'Actuator 9999 not found' });
      const bad = await service.get('/actuators/x/state');
      expect(bad.status).toBe(422);
      expect(bad.body.detail[0].loc).toEqual(['path', 'actuator_id']);
      expect((await service.get('/actuators/2147483648/state')).status).toBe(422);
    });
  });

  describe('PATCH /actuators/{actuator_id}/last_activated', () => {
    it.each([
      ['no body', {}],
      ['an empty form body', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, raw: '' }],
      ['an empty form body with a charset', { headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' }, raw: '' }],
      ['a form body with fields', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, raw: 'last_activated=2000-01-01' }],
      ['an empty JSON body', { headers: { 'content-type': 'application/json' }, raw: '' }],
      ['an empty JSON object', { headers: { 'content-type': 'application/json' }, raw: '{}' }],
      [
        'a JSON body with a last_activated',
        { headers: { 'content-type': 'application/json' }, raw: '{"last_activated":"2000-01-01T00:00:00Z"}' },
      ],
      ['malformed JSON', { headers: { 'content-type': 'application/json' }, raw: '{' }],
      ['an empty text body', { headers: { 'content-type': 'text/plain' }, raw: '' }],
      ['bytes', { headers: { 'content-type': 'application/octet-stream' }, raw: new Uint8Array([1, 2, 3]) }],
    ])('moves last_activated to now and changes nothing else, given %s', async (_name, options) => {
      const { actuator } = await pumpOnNewSensor();
      service.clock.now = NOW + 4321;
      const res = await markActivated(actuator.actuator_id, options);
      expect(res.status).toBe(200);
      // A run report is the controller's contact: last_polled moves with it.
      const moved = { ...actuator, last_activated: iso(NOW + 4321), last_polled: iso(NOW + 4321) };
      expect(res.body).toEqual(moved);
      expect(await actuatorsOf5()).toContainEqual(moved);
    });

    it('takes the path with a trailing slash', async () => {
      const { actuator } = await pumpOnNewSensor();
      service.clock.now = NOW + 1;
      const res = await service.request('PATCH', `/actuators/${actuator.actuator_id}/last_activated/`);
      expect(res.status).toBe(200);
      expect(res.body.last_activated).toBe(iso(NOW + 1));
    });

    it('answers 404 for an unknown actuator and 422 for a bad id, writing nothing', async () => {
      const before = await actuatorsOf5();
      const missing = await markActivated(9999, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, raw: '' });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ detail: 'Actuator 9999 not found' });
      expect((await markActivated(-1)).status).toBe(422);
      expect((await markActivated('one')).status).toBe(422);
      expect(await actuatorsOf5()).toEqual(before);
    });

    it('answers 413 to a body over the limit and writes nothing', async () => {
      const { actuator } = await pumpOnNewSensor();
      service.clock.now = NOW + 1;
      const res = await markActivated(actuator.actuator_id, {
        headers: { 'content-type': 'application/json' },
        raw: `"${'x'.repeat(4096)}"`,
      });
      expect(res.status).toBe(413);
      expect(await actuatorsOf5()).toContainEqual(actuator);
    });

    it('starts a new period: the pump waits exactly activation_period seconds', async () => {
      const { sensor, actuator } = await pumpOnNewSensor({ activation_period: 30 });
      const id = actuator.actuator_id;
      service.clock.now = NOW + 100_000;
      await measure(sensor, 5.0);
      expect((await state(id)).activate).toBe(true);
      await markActivated(id, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, raw: '' });
      expect(await state(id)).toMatchObject({ activate: false, status: STATUS.waiting, reason: REASON.waiting });
      service.clock.now = NOW + 129_999;
      expect(await state(id)).toMatchObject({ activate: false, status: STATUS.waiting, reason: REASON.waiting });
      service.clock.now = NOW + 130_000;
      expect(await state(id)).toMatchObject({ activate: true, status: STATUS.ok, reason: REASON.ok });
    });

    it('keeps its tolerant body parsing to itself: other routes still answer 415', async () => {
      const form = { headers: { 'content-type': 'application/x-www-form-urlencoded' }, raw: 'prototype_id=9&prototype_name=x' };
      const text = { headers: { 'content-type': 'text/plain' }, raw: '{}' };
      for (const options of [form, text]) {
        expect((await service.request('POST', '/actuators', options)).status).toBe(415);
        expect((await service.request('PATCH', '/actuators', options)).status).toBe(415);
        expect((await service.request('POST', '/prototypes', options)).status).toBe(415);
        expect((await service.request('PATCH', '/sensors', options)).status).toBe(415);
      }
      expect((await service.get('/prototypes/9')).status).toBe(404);
      // And the JSON routes still refuse malformed JSON.
      expect((await service.request('PATCH', '/actuators', { headers: { 'content-type': 'application/json' }, raw: '[' })).status).toBe(
        400,
      );
    });
  });
});

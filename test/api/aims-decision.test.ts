import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { machineZone, localTime } from '../../src/aims/zone.js';
import { phSensorBody } from '../helpers/bodies.js';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';

/**
 * Dosing that aims, through the real decision over HTTP on both stores: a set point and band
 * decide, a proportional dose is sized from the gain and recorded at its size, limits count the
 * sized seconds, the gain is learned from answered doses, and timed outputs answer their window.
 */
const NOW = Date.UTC(2026, 10, 22, 12);
const SECOND = 1000;
const iso = (ms: number) => new Date(ms).toISOString();
/** An acid pump aiming at pH 6.0 ± 0.1, sized from a starting gain of 0.05 pH/s, judged 60 s after each dose. */
const AIMING = {
  actuator_type: 'acid_pump',
  condition_value: 6.5,
  activation_condition: 'high',
  activation_period: 0,
  activation_duration: 30,
  response_delay: 60,
  setpoint: 6.0,
  band: 0.1,
  dose_mode: 'proportional',
  initial_gain: 0.05,
};

describe.each(storeKinds())('dosing that aims (%s)', (kind) => {
  let service: TestService;
  let nextPrototype = 300;
  beforeAll(async () => {
    service = await startService(kind);
    service.clock.now = NOW;
  });
  afterAll(() => service?.close());

  async function tank(pump: Record<string, unknown> = {}) {
    const prototype_id = nextPrototype++;
    expect((await service.post('/prototypes', { prototype_id, prototype_name: `tank ${prototype_id}` })).status).toBe(200);
    const sensor = await service.post('/sensors/', { ...phSensorBody, threshold_high: 14, prototype_id });
    const sensor_id = sensor.body.sensor_id as number;
    const actuator = await service.post('/actuators', { ...AIMING, sensor_id, ...pump });
    expect(actuator.status, JSON.stringify(actuator.body)).toBe(200);
    return { prototype_id, sensor_id, actuator_id: actuator.body.actuator_id as number };
  }
  const read = async (sensor_id: number, value: number, at: number) => {
    service.clock.now = at;
    expect((await service.post('/measurements', { sensor_id, value, timestamp: iso(at) })).status).toBe(200);
    await service.app.alertsSettled();
  };
  const state = async (id: number) => {
    const res = await service.get(`/actuators/${id}/state`);
    expect(res.status).toBe(200);
    return res.body;
  };
  const ran = async (id: number, at: number) => {
    service.clock.now = at;
    expect((await service.patch(`/actuators/${id}/last_activated`)).status).toBe(200);
    await service.app.alertsSettled();
  };
  const doses = async (id: number) => (await service.get(`/actuators/${id}/activations`)).body as Record<string, any>[];

  it('sizes the dose to close 80 % of the gap and shows set point, error and gain', async () => {
    const { sensor_id, actuator_id } = await tank({ flow_ml_per_s: 0.5 });
    await read(sensor_id, 7.0, NOW);
    expect(await state(actuator_id)).toEqual({
      activate: true,
      status: 'OK',
      reason: 'ok',
      duration: 16, // 0.8 × 1.0 pH / 0.05 pH/s
      period: 0,
      setpoint: 6,
      error: 1,
      gain: 0.05,
    });
    // The dose claimed is the size told, with the volume of that size; the run report completes it.
    await ran(actuator_id, NOW + 20 * SECOND);
    const recorded = await doses(actuator_id);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ duration: 16, volume_ml: 8, reported: true });
  });

  it('the band decides: inside it nothing doses; past it the dose is clamped to max_duration', async () => {
    const { sensor_id, actuator_id } = await tank({ max_duration: 10 });
    await read(sensor_id, 6.1, NOW + 100 * SECOND);
    expect(await state(actuator_id)).toMatchObject({ activate: false, reason: 'ok', setpoint: 6, gain: 0.05 });
    expect((await state(actuator_id)).error).toBeCloseTo(0.1);
    await read(sensor_id, 6.11, NOW + 101 * SECOND);
    expect(await state(actuator_id)).toMatchObject({ activate: true, duration: 1.76 });
    // The claim that answer made ends with its run report.
    await ran(actuator_id, NOW + 101.5 * SECOND);
    await read(sensor_id, 8, NOW + 102 * SECOND);
    expect(await state(actuator_id)).toMatchObject({ activate: true, duration: 10 });
  });

  it('without a gain the dose is min_duration, never a bigger one', async () => {
    const { sensor_id, actuator_id } = await tank({ initial_gain: null, min_duration: 2 });
    await read(sensor_id, 8, NOW + 200 * SECOND);
    expect(await state(actuator_id)).toMatchObject({ activate: true, duration: 2, gain: null });
  });

  it('limits count the sized seconds, not activation_duration', async () => {
    // 16 s doses against 40 s a day: two fit, the third does not (30 s doses would stop at the second).
    const { sensor_id, actuator_id } = await tank({ max_seconds_per_day: 40 });
    const t = NOW + 300 * SECOND;
    await read(sensor_id, 7.0, t);
    expect(await state(actuator_id)).toMatchObject({ activate: true, duration: 16 });
    await ran(actuator_id, t + 20 * SECOND);
    await read(sensor_id, 7.0, t + 30 * SECOND);
    expect(await state(actuator_id)).toMatchObject({ activate: true, duration: 16 });
    await ran(actuator_id, t + 50 * SECOND);
    await read(sensor_id, 7.0, t + 60 * SECOND);
    expect(await state(actuator_id)).toMatchObject({ activate: false, reason: 'limit' });
    expect((await doses(actuator_id)).map((d) => d.duration)).toEqual([16, 16]);
  });

  it('learns the gain from its answered doses and sizes with it after three', async () => {
    // An explicit threshold judges each dose on one late reading, which this test gives.
    const { sensor_id, actuator_id } = await tank({ min_response: 0.1 });
    let t = NOW + 1000 * SECOND;
    // Each 16 s dose moves the tank by 0.4 pH (a gain of 0.025 pH/s, half what was assumed); the tank drifts back up.
    for (let i = 0; i < 3; i++) {
      await read(sensor_id, 7.0, t);
      expect((await state(actuator_id)).duration).toBe(16);
      await ran(actuator_id, t + 16 * SECOND);
      await read(sensor_id, 6.6, t + 80 * SECOND);
      t += 100 * SECOND;
    }
    expect((await doses(actuator_id)).map((d) => d.answered)).toEqual([true, true, true]);
    const actuator = (await service.get(`/actuators/${nextPrototype - 1}`)).body[0];
    expect(actuator.learned_gain).toBeCloseTo(0.025);
    await read(sensor_id, 6.5, t);
    // 0.8 × 0.5 / 0.025 = 16 s: the learned gain, not the initial one (which would give 8 s).
    const sized = await state(actuator_id);
    expect(sized).toMatchObject({ activate: true, duration: 16 });
    expect(sized.gain).toBeCloseTo(0.025);
  });

  it('a fixed pump with a set point runs activation_duration past the band', async () => {
    const { sensor_id, actuator_id } = await tank({ dose_mode: 'fixed' });
    await read(sensor_id, 7.0, NOW + 2000 * SECOND);
    expect(await state(actuator_id)).toMatchObject({ activate: true, duration: 30, setpoint: 6, error: 1, gain: null });
  });

  it('an actuator without a set point answers as before, without aim fields', async () => {
    const { sensor_id, actuator_id } = await tank({ setpoint: null, dose_mode: 'fixed' });
    await read(sensor_id, 7.0, NOW + 3000 * SECOND);
    expect(await state(actuator_id)).toEqual({ activate: true, status: 'OK', reason: 'ok', duration: 30, period: 0 });
  });

  describe('timed outputs', () => {
    /** A daily window that opened an hour before `at` (in the service's zone), `hours` long. */
    const windowFrom = (at: number, hours: number) => {
      const t = localTime(at - 3600 * SECOND, machineZone());
      return { on: `${String(t.hour).padStart(2, '0')}:${String(t.minute).padStart(2, '0')}`, hours };
    };

    it('answers on with the rest of the window, off outside it, re-asserted at every poll', async () => {
      const at = NOW + 84 * 60 * SECOND;
      service.clock.now = at;
      const light = await tank({
        actuator_type: 'light',
        activation_condition: 'schedule',
        schedule: windowFrom(at, 3),
        setpoint: null,
        dose_mode: 'fixed',
      });
      // No reading at all: a light does not need one.
      const on = await state(light.actuator_id);
      expect(on).toMatchObject({ activate: true, reason: 'ok', duration: 2 * 3600 });
      expect(on.status).toMatch(/^Schedule: on until /);
      service.clock.now = at + 1800 * SECOND;
      expect(await state(light.actuator_id)).toMatchObject({ activate: true, duration: 1.5 * 3600 });
      service.clock.now = at + 2 * 3600 * SECOND;
      expect(await state(light.actuator_id)).toMatchObject({ activate: false, duration: 0 });
    });

    it('stays off while paused or disabled', async () => {
      const at = NOW + 400 * 60 * SECOND;
      service.clock.now = at;
      const light = await tank({
        actuator_type: 'light',
        activation_condition: 'schedule',
        schedule: windowFrom(at, 3),
        setpoint: null,
        dose_mode: 'fixed',
      });
      expect((await service.post(`/prototypes/${light.prototype_id}/pause`, { for: 600 })).status).toBe(200);
      expect(await state(light.actuator_id)).toMatchObject({ activate: false, reason: 'paused' });
      expect((await service.request('DELETE', `/prototypes/${light.prototype_id}/pause`)).status).toBe(204);
      expect(await state(light.actuator_id)).toMatchObject({ activate: true });
      await service.patch('/actuators', [{ actuator_id: light.actuator_id, enabled: false }]);
      expect(await state(light.actuator_id)).toMatchObject({ activate: false, reason: 'disabled' });
    });

    it('irrigation cycles answer the rest of the current cycle', async () => {
      const at = NOW + 40_000 * SECOND;
      service.clock.now = at;
      const pump = await tank({
        actuator_type: 'irrigation_pump',
        activation_condition: 'schedule',
        schedule: { every: 86_400, for: 86_399 },
        setpoint: null,
        dose_mode: 'fixed',
      });
      const answer = await state(pump.actuator_id);
      expect(answer.activate).toBe(true);
      expect(answer.duration).toBeGreaterThan(0);
    });
  });
});

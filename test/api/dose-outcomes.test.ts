/**
 * Doses judged by their outcome with default settings, through HTTP on both stores: the probe's
 * noise neither answers an empty bottle's doses nor fakes misses on a working pump; the wrong way
 * locks out after 3; unanswered doses are bounded by their learned effect; unusual consumption
 * holds the pump until unlocked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alert } from '../../src/domain/alert.js';
import { phSensorBody } from '../helpers/bodies.js';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';

const NOW = Date.UTC(2026, 10, 22, 12);
const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
/** An acid pump above 6.5, every 3 minutes for 2 s, judged 2 minutes after each dose; every safety setting at its default. */
const PUMP = {
  actuator_type: 'acid_pump',
  condition_value: 6.5,
  activation_condition: 'high',
  activation_period: 180,
  activation_duration: 2,
  response_delay: 120,
};

/** Seeded uniform noise in [-amplitude, amplitude] (mulberry32). */
function noiseSource(seed: number, amplitude: number) {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((((t ^ (t >>> 14)) >>> 0) / 4294967296) * 2 - 1) * amplitude;
  };
}

interface Tank {
  prototype_id: number;
  sensor_id: number;
  actuator_id: number;
}

describe.each(storeKinds())('doses judged by outcome (%s)', (kind) => {
  let service: TestService;
  let nextPrototype = 300;
  beforeAll(async () => {
    service = await startService(kind, { now: NOW });
  });
  afterAll(() => service?.close());

  /** A new tank, made at the start of its own day: no test's clock runs behind another's pump. */
  async function tank(pump: Record<string, unknown> = {}, sensor: Record<string, unknown> = {}): Promise<Tank & { start: number }> {
    const prototype_id = nextPrototype++;
    const start = NOW + (prototype_id - 300) * 20 * 24 * 3600_000;
    service.clock.now = start;
    expect((await service.post('/prototypes', { prototype_id, prototype_name: `tank ${prototype_id}` })).status).toBe(200);
    const made = await service.post('/sensors/', {
      ...phSensorBody,
      threshold_critically_low: 4,
      threshold_high: 14,
      prototype_id,
      ...sensor,
    });
    const actuator = await service.post('/actuators', { ...PUMP, sensor_id: made.body.sensor_id, ...pump });
    expect(actuator.status).toBe(200);
    return { prototype_id, sensor_id: made.body.sensor_id, actuator_id: actuator.body.actuator_id, start };
  }

  /**
   * A tank simulated minute by minute from `start`: its true pH, a probe with noise, and a pump
   * polled each minute that runs when the state says so; each run moves the true pH by `effect`
   * (negative: lowers it) two minutes later. Stops after `minutes` or once the pump is held.
   */
  async function run(
    t: Tank,
    options: { start: number; minutes: number; ph: number; effect: number; noise: number; seed?: number; rise?: number },
  ) {
    const noise = noiseSource(options.seed ?? 7, options.noise);
    let ph = options.ph;
    const pending: number[] = [];
    let doses = 0;
    let reason = '';
    for (let m = 0; m < options.minutes; m++) {
      const at = options.start + m * MINUTE;
      service.clock.now = at;
      ph += (options.rise ?? 0.12) / 60;
      while (pending.length && pending[0] <= at) {
        pending.shift();
        ph += options.effect;
      }
      const value = Math.round((ph + noise()) * 1000) / 1000;
      expect((await service.post('/measurements', { sensor_id: t.sensor_id, value, timestamp: iso(at) })).status).toBe(200);
      await service.app.alertsSettled();
      const state = await service.get(`/actuators/${t.actuator_id}/state`);
      expect(state.status).toBe(200);
      reason = state.body.reason;
      if (reason === 'locked_out' || reason === 'unusual') break;
      if (state.body.activate) {
        expect((await service.patch(`/actuators/${t.actuator_id}/last_activated`)).status).toBe(200);
        await service.app.alertsSettled();
        pending.push(at + 2 * MINUTE);
        doses++;
      }
    }
    return { doses, reason, ph };
  }

  const dosesOf = async (t: Tank) =>
    (await service.get(`/actuators/${t.actuator_id}/activations?limit=1000`)).body as {
      answered: boolean | null;
      reversed: boolean | null;
      response: number | null;
    }[];
  const alertsOf = async (t: Tank) =>
    ((await service.get(`/alerts?state=all&prototype_id=${t.prototype_id}`)).body as Alert[]).filter((a) => a.actuator_id !== null);

  for (const noise of [0.03, 0.05]) {
    it(`±${noise} pH of noise: an empty bottle's doses are not answered; lockout after 20 with its reason and alert`, async () => {
      const t = await tank();
      const result = await run(t, { start: t.start, minutes: 200, ph: 6.8, effect: 0, noise, seed: noise * 1000 });
      expect(result.reason).toBe('locked_out');
      expect(result.doses).toBeLessThanOrEqual(21);
      const doses = await dosesOf(t);
      expect(doses.filter((d) => d.answered === true)).toHaveLength(0);
      const actuator = (await service.get(`/actuators/${t.prototype_id}`)).body[0];
      expect(actuator.lockout.reason).toContain("did not move pH down beyond the probe's noise");
      expect((await alertsOf(t)).map((a) => [a.kind, a.severity])).toEqual([['lockout', 'critical']]);
    });

    it(`±${noise} pH of noise: a working pump's doses are answered, never reversed, and it is never locked out`, async () => {
      const t = await tank();
      const result = await run(t, { start: t.start, minutes: 240, ph: 8, effect: -0.1, noise, seed: noise * 1000 + 1 });
      expect(result.reason).not.toBe('locked_out');
      const doses = await dosesOf(t);
      const judged = doses.filter((d) => d.answered !== null);
      expect(judged.length).toBeGreaterThan(10);
      expect(judged.filter((d) => d.answered).length / judged.length).toBeGreaterThan(0.5);
      expect(doses.some((d) => d.reversed === true)).toBe(false);
      expect(result.ph).toBeGreaterThan(6);
      expect(result.ph).toBeLessThan(7);
    });
  }

  it('the wrong bottle: 3 doses in a row move pH the wrong way → locked out at once, reason and reversed doses say so', async () => {
    const t = await tank();
    const result = await run(t, { start: t.start, minutes: 60, ph: 6.8, effect: 0.15, noise: 0.02 });
    expect(result.reason).toBe('locked_out');
    expect(result.doses).toBeLessThanOrEqual(5);
    const doses = await dosesOf(t);
    expect(doses.filter((d) => d.reversed === true).length).toBeGreaterThanOrEqual(3);
    const actuator = (await service.get(`/actuators/${t.prototype_id}`)).body[0];
    expect(actuator.lockout.reason).toContain('moves the wrong way after doses');
  });

  it('lockout_reversed_after null: reversed doses alone never lock out', async () => {
    const t = await tank({ lockout_reversed_after: null, lockout_after: null });
    const result = await run(t, { start: t.start, minutes: 40, ph: 6.8, effect: 0.15, noise: 0.02 });
    expect(result.reason).not.toBe('locked_out');
    expect((await dosesOf(t)).filter((d) => d.reversed === true).length).toBeGreaterThanOrEqual(3);
  });

  it('a probe freezing after answered doses: locked out once the unanswered ones should have moved pH half way to critical', async () => {
    // Critical low 4.0, condition 6.5: half the distance is 1.25; a dose was seen to move 0.1 (0.05 a second).
    const t = await tank();
    const learned = await run(t, { start: t.start, minutes: 90, ph: 6.9, effect: -0.1, noise: 0.01 });
    expect(learned.reason).not.toBe('locked_out');
    const answered = (await dosesOf(t)).filter((d) => d.answered === true).length;
    expect(answered).toBeGreaterThanOrEqual(3);
    // From now on the probe reads 7.2 whatever the tank does.
    const before = (await dosesOf(t)).length;
    let reason = '';
    for (let m = 0; m < 200 && reason !== 'locked_out'; m++) {
      const at = t.start + (90 + m) * MINUTE;
      service.clock.now = at;
      await service.post('/measurements', { sensor_id: t.sensor_id, value: 7.2, timestamp: iso(at) });
      await service.app.alertsSettled();
      const state = await service.get(`/actuators/${t.actuator_id}/state`);
      reason = state.body.reason;
      if (state.body.activate) {
        await service.patch(`/actuators/${t.actuator_id}/last_activated`);
        await service.app.alertsSettled();
      }
    }
    expect(reason).toBe('locked_out');
    const after = (await dosesOf(t)).length - before;
    // 13 doses of 0.1 pass 1.25; judging lags a dose or so behind; far fewer than the 20 of the count.
    expect(after).toBeLessThanOrEqual(16);
    const actuator = (await service.get(`/actuators/${t.prototype_id}`)).body[0];
    expect(actuator.lockout.reason).toContain('should have moved it by about');
  });

  /** The pump's decision as its tank's status shows it: a read that claims no dose (a state read would claim and count one). */
  const decisionShown = async (t: { prototype_id: number; actuator_id: number }) => {
    const { body } = await service.get(`/prototypes/${t.prototype_id}/status`);
    return body.actuators.find((a: { actuator: { actuator_id: number } }) => a.actuator.actuator_id === t.actuator_id).state;
  };

  it('unusual consumption: held with reason unusual and a critical alert; doses show the usual amount; unlock restarts the learning', async () => {
    const t = await tank({ flow_ml_per_s: 0.5 });
    const DAY = 24 * 60 * MINUTE;
    const start = t.start + 10 * DAY;
    // Four days of 4 doses a day (one every 6 h), each answered: readings before it and after it.
    const noise = noiseSource(11, 0.01);
    const read = async (at: number, value: number) => {
      service.clock.now = at;
      const sent = Math.round((value + noise()) * 1000) / 1000;
      expect((await service.post('/measurements', { sensor_id: t.sensor_id, value: sent, timestamp: iso(at) })).status).toBe(200);
      await service.app.alertsSettled();
    };
    const dose = async (at: number) => {
      for (const m of [-2, -1, 0]) await read(at + m * MINUTE, 6.8);
      expect((await service.patch(`/actuators/${t.actuator_id}/last_activated`)).status).toBe(200);
      await service.app.alertsSettled();
      for (const m of [3, 4, 5]) await read(at + m * MINUTE, 6.6);
    };
    for (let i = 0; i < 16; i++) await dose(start + i * 6 * 60 * MINUTE);
    const now = start + 4 * DAY;
    let reason = '';
    let extra = 0;
    for (let at = now; reason !== 'unusual' && extra < 10; at += 10 * MINUTE, extra++) {
      await dose(at);
      reason = (await decisionShown(t)).reason;
    }
    expect(reason).toBe('unusual');
    // One dose (1 ml) per 6 h is usual: the third in the window makes more than twice that.
    expect(extra).toBe(3);
    const state = { body: await decisionShown(t) };
    expect(state.body.activate).toBe(false);
    expect(state.body.status).toContain("Check the probe's calibration");
    const alerts = await alertsOf(t);
    expect(alerts.map((a) => [a.kind, a.severity, a.state])).toEqual([['unusual', 'critical', 'active']]);

    const totals = await service.get(`/actuators/${t.actuator_id}/doses`);
    expect(totals.status).toBe(200);
    expect(Array.isArray(totals.body)).toBe(true);
    expect(totals.headers.get('usual-amount')).toBe('1');
    expect(totals.headers.get('usual-unit')).toBe('ml');
    expect(totals.headers.get('usual-window')).toBe('21600');
    expect(Number(totals.headers.get('usual-ratio'))).toBeGreaterThan(2);

    expect((await service.post(`/actuators/${t.actuator_id}/unlock`)).status).toBe(200);
    await service.app.alertsSettled();
    expect((await alertsOf(t)).map((a) => a.state)).toEqual(['cleared']);
    const after = await service.get(`/actuators/${t.actuator_id}/doses`);
    expect(after.headers.get('usual-amount')).toBe('unknown');
    expect(after.headers.get('usual-ratio')).toBe('unknown');
    await dose(service.clock.now! + 10 * MINUTE);
    expect((await service.get(`/actuators/${t.actuator_id}/state`)).body.reason).not.toBe('unusual');
  });

  it('unusual_factor null: never held on consumption', async () => {
    const t = await tank({ unusual_factor: null });
    const actuator = (await service.get(`/actuators/${t.prototype_id}`)).body[0];
    expect(actuator.unusual_factor).toBeNull();
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { basePumpBody, phSensorBody } from '../helpers/bodies.js';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';

/**
 * A dose is a claim (docs/safety.md): `activate: true` is answered once, to the read whose claim
 * was committed; every other read is told `claimed` until the report or the run and its grace;
 * the report completes the claim (one dose); an unreported claim stays a dose with `reported:
 * false`. Over HTTP, on both stores.
 */
const NOW = Date.UTC(2026, 10, 22, 12);
const GRACE_MS = 30_000;

describe.each(storeKinds())('a dose is a claim (%s)', (kind) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService(kind, { now: NOW });
  });
  beforeEach(() => {
    service.clock.now = NOW;
  });
  afterAll(() => service?.close());

  /** A fresh pH sensor reading 5.0 now, and a base pump on it, made two minutes ago, that wants to run (below 5.5). */
  async function thirstyPump(fields: Record<string, unknown> = {}) {
    const sensor = (await service.post('/sensors/', phSensorBody)).body.sensor_id as number;
    service.clock.now = NOW - 120_000;
    const res = await service.post('/actuators', { ...basePumpBody(sensor), ...fields });
    service.clock.now = NOW;
    expect(res.status).toBe(200);
    expect((await service.post('/measurements', { sensor_id: sensor, value: 5.0 })).status).toBe(200);
    return { sensor, id: res.body.actuator_id as number };
  }
  const state = async (id: number) => {
    const res = await service.get(`/actuators/${id}/state`);
    expect(res.status).toBe(200);
    return res.body;
  };
  const report = (id: number) => service.request('PATCH', `/actuators/${id}/last_activated`);
  const doses = async (id: number) => (await service.get(`/actuators/${id}/activations`)).body as Record<string, unknown>[];

  it('answers activate: true once; every other read is told claimed until the report, which completes the one dose', async () => {
    const { id } = await thirstyPump();
    expect(await state(id)).toMatchObject({ activate: true, reason: 'ok', duration: 3 });
    const claimed = await state(id);
    expect(claimed).toMatchObject({ activate: false, reason: 'claimed' });
    expect(claimed.status).toContain(new Date(NOW + 3_000 + GRACE_MS).toISOString());
    // The claim is the dose, counted from the moment it is made.
    const [dose] = await doses(id);
    expect(await doses(id)).toHaveLength(1);
    expect(dose).toMatchObject({ reported: false, manual: false, duration: 3, value_before: 5.0 });
    service.clock.now = NOW + 2_000;
    expect((await report(id)).status).toBe(200);
    expect(await doses(id)).toEqual([{ ...dose, reported: true }]);
    // The period counts from the report.
    expect(await state(id)).toMatchObject({ activate: false, reason: 'waiting' });
    service.clock.now = NOW + 62_000;
    expect(await state(id)).toMatchObject({ activate: true, reason: 'ok' });
    expect(await doses(id)).toHaveLength(2);
  });

  it('keeps an unreported claim as a dose with reported: false after the grace, and claims again only after it', async () => {
    const { id } = await thirstyPump({ activation_period: 10 });
    expect((await state(id)).activate).toBe(true);
    service.clock.now = NOW + 3_000 + GRACE_MS - 1;
    expect(await state(id)).toMatchObject({ activate: false, reason: 'claimed' });
    service.clock.now = NOW + 3_000 + GRACE_MS;
    expect(await state(id)).toMatchObject({ activate: true, reason: 'ok' });
    const [second, first] = await doses(id);
    expect(first).toMatchObject({ reported: false, activated_at: new Date(NOW).toISOString() });
    expect(second).toMatchObject({ reported: false, activated_at: new Date(NOW + 3_000 + GRACE_MS).toISOString() });
    // A report after the grace has no open claim: a dose as before.
    service.clock.now = NOW + 2 * (3_000 + GRACE_MS) + 1;
    expect((await report(id)).status).toBe(200);
    expect((await doses(id)).map((d) => d.reported)).toEqual([true, false, false]);
  });

  it('counts a claim for the limits at once: a second dose in the hour is held by max_doses_per_hour', async () => {
    const { id } = await thirstyPump({ max_doses_per_hour: 1, activation_period: 0 });
    expect((await state(id)).activate).toBe(true);
    // Never reported: after the grace, the limit holds it all the same.
    service.clock.now = NOW + 3_000 + GRACE_MS;
    expect(await state(id)).toMatchObject({ activate: false, reason: 'limit' });
    expect(await doses(id)).toHaveLength(1);
  });

  it('takes the claimed volume from the bottle once, at the claim; the report takes nothing more', async () => {
    const { id } = await thirstyPump({ flow_ml_per_s: 2, stock_ml: 100 });
    expect((await state(id)).activate).toBe(true);
    const stock = async () => (await service.get('/actuators/0')).body.find((a: { actuator_id: number }) => a.actuator_id === id).stock_ml;
    expect(await stock()).toBe(94);
    await report(id);
    expect(await stock()).toBe(94);
    expect((await doses(id))[0]).toMatchObject({ volume_ml: 6, reported: true });
  });

  it('records a run report with no open claim as a dose, as before', async () => {
    const { id } = await thirstyPump();
    expect((await report(id)).status).toBe(200);
    expect(await doses(id)).toEqual([expect.objectContaining({ reported: true, manual: false })]);
    expect(await state(id)).toMatchObject({ activate: false, reason: 'waiting' });
  });

  it('answers activate: true to exactly one of many reads at the same moment (two controllers on one pump)', async () => {
    const { id } = await thirstyPump();
    const answers = await Promise.all(Array.from({ length: 12 }, () => state(id)));
    expect(answers.filter((a) => a.activate)).toHaveLength(1);
    expect(answers.filter((a) => a.reason === 'claimed')).toHaveLength(11);
    expect(await doses(id)).toHaveLength(1);
  });

  it('makes no claim for a read that is not told to run, and the "no dose" answers write nothing', async () => {
    const { sensor, id } = await thirstyPump();
    await service.post('/measurements', { sensor_id: sensor, value: 6.0 });
    for (let i = 0; i < 5; i++) expect(await state(id)).toMatchObject({ activate: false, reason: 'ok' });
    expect(await doses(id)).toEqual([]);
  });

  it('takes controller http (the default) or mqtt; anything else is 422 on create and patch, and nothing is written', async () => {
    const { id } = await thirstyPump();
    const all = async () => (await service.get('/actuators/0')).body as { actuator_id: number; controller: string }[];
    expect((await all()).find((a) => a.actuator_id === id)?.controller).toBe('http');
    const before = await all();
    for (const controller of ['bogus', 'MQTT', 1, null]) {
      const created = await service.post('/actuators', { ...basePumpBody(2), controller });
      expect(created.status).toBe(422);
      expect(created.body.detail[0].loc).toEqual(['body', 'controller']);
      const patched = await service.patch('/actuators', [{ actuator_id: id, controller }]);
      expect(patched.status).toBe(422);
    }
    expect(await all()).toEqual(before);
    const patched = await service.patch('/actuators', [{ actuator_id: id, controller: 'mqtt' }]);
    expect(patched.status).toBe(200);
    expect(patched.body[0].controller).toBe('mqtt');
  });

  describe('POST /actuators/{id}/run', () => {
    it('makes the next read answer activate: true for that many seconds, once, as a claim recorded manual', async () => {
      const { sensor, id } = await thirstyPump();
      // The reading does not ask for a dose: a run by hand does not need it to.
      await service.post('/measurements', { sensor_id: sensor, value: 6.0 });
      expect(await state(id)).toMatchObject({ activate: false, reason: 'ok' });
      const res = await service.post(`/actuators/${id}/run`, { seconds: 7.5 });
      expect(res.status).toBe(200);
      expect(res.body.actuator_id).toBe(id);
      expect(await state(id)).toMatchObject({ activate: true, duration: 7.5 });
      expect(await state(id)).toMatchObject({ activate: false, reason: 'claimed' });
      expect(await doses(id)).toEqual([expect.objectContaining({ manual: true, reported: false, duration: 7.5 })]);
      // Once: after the claim the pump follows its reading again.
      service.clock.now = NOW + 7_500 + GRACE_MS;
      expect(await state(id)).toMatchObject({ activate: false, reason: 'waiting' });
      service.clock.now = NOW + 120_000;
      expect(await state(id)).toMatchObject({ activate: false, reason: 'ok' });
      expect(await doses(id)).toHaveLength(1);
    });

    it('refuses seconds outside 1..60 (422) and an unknown actuator (404), writing nothing', async () => {
      const { sensor, id } = await thirstyPump();
      await service.post('/measurements', { sensor_id: sensor, value: 6.0 });
      for (const body of [{ seconds: 0 }, { seconds: 0.5 }, { seconds: 61 }, { seconds: 'x' }, {}, { seconds: null }]) {
        const res = await service.post(`/actuators/${id}/run`, body);
        expect(res.status, JSON.stringify(body)).toBe(422);
      }
      expect((await service.post('/actuators/999999/run', { seconds: 5 })).status).toBe(404);
      expect(await state(id)).toMatchObject({ activate: false, reason: 'ok' });
      expect(await doses(id)).toEqual([]);
    });

    it('refuses a run (409, with the reason) while the pump is disabled, paused or interlocked, writing nothing', async () => {
      const level = (await service.post('/sensors/', { ...phSensorBody, sensor_type: 'water_level', sensor_unit: 'cm' })).body.sensor_id;
      const { id } = await thirstyPump({ enabled: false });
      let res = await service.post(`/actuators/${id}/run`, { seconds: 5 });
      expect(res.status).toBe(409);
      expect(res.body.detail).toContain('disabled');
      // An interlock sensor without a reading blocks (fail closed).
      await service.patch('/actuators', [{ actuator_id: id, enabled: true, interlocks: [{ sensor_id: level, block_below: 10 }] }]);
      res = await service.post(`/actuators/${id}/run`, { seconds: 5 });
      expect(res.status).toBe(409);
      expect(res.body.detail).toContain('interlock');
      await service.patch('/actuators', [{ actuator_id: id, interlocks: [] }]);
      expect((await service.post('/prototypes/0/pause', { for: 60 })).status).toBe(200);
      try {
        res = await service.post(`/actuators/${id}/run`, { seconds: 5 });
        expect(res.status).toBe(409);
        expect(res.body.detail).toContain('paused');
      } finally {
        await service.request('DELETE', '/prototypes/0/pause');
      }
      expect(await doses(id)).toEqual([]);
    });
  });

  it('says dosing is ok in /healthz while claims commit', async () => {
    const res = await service.get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body.dosing).toBe('ok');
  });
});

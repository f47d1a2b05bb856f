import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';
import { phSensorBody, temperatureSensorBody } from '../helpers/bodies.js';
import { tokenFor } from '../helpers/tokens.js';
import { type Changes, changeBus } from '../../src/core/bus.js';

/** The dosing safety data and the API around it (docs/api.md §14), on both stores, over HTTP. */
const NOW = Date.UTC(2026, 10, 22, 12);
const iso = (ms: number) => new Date(ms).toISOString();
const pump = {
  actuator_type: 'acid_pump',
  sensor_id: 2,
  condition_value: 6.5,
  activation_condition: 'high',
  activation_period: 60,
  activation_duration: 3,
};

describe.each(storeKinds())('dosing safety data (%s)', (kind) => {
  let service: TestService;
  /** A water level sensor of prototype 0, used as an interlock. */
  let level: number;
  beforeAll(async () => {
    service = await startService(kind);
    service.clock.now = NOW;
    level = (await service.post('/sensors/', { ...phSensorBody, sensor_type: 'water_level', sensor_unit: 'cm' })).body.sensor_id;
  });
  afterAll(() => service?.close());

  const actuatorsOf0 = async () => (await service.get('/actuators/0')).body as Record<string, unknown>[];
  const actuator = async (id: number) => (await actuatorsOf0()).find((a) => a.actuator_id === id);
  const create = async (fields: Record<string, unknown> = {}) => {
    const res = await service.post('/actuators', { ...pump, ...fields });
    expect(res.status).toBe(200);
    return res.body;
  };

  describe('actuator settings', () => {
    const settings = {
      max_doses_per_hour: 4,
      max_seconds_per_day: 120.5,
      min_response: 0.05,
      response_delay: 90,
      lockout_after: 5,
      controller_timeout: 300,
    };

    it('round-trip through create, read and patch, interlocks in their order', async () => {
      const interlocks = [
        { sensor_id: level, block_below: 10, block_above: null },
        { sensor_id: 3, block_below: 15, block_above: 30 },
      ];
      const created = await create({ ...settings, interlocks: [interlocks[0], { sensor_id: '3', block_below: 15, block_above: 30 }] });
      expect(created).toMatchObject({ ...settings, interlocks, lockout: null, last_polled: null });
      expect(await actuator(created.actuator_id)).toEqual(created);

      const patched = await service.patch('/actuators', [
        {
          actuator_id: created.actuator_id,
          max_doses_per_hour: null,
          lockout_after: null,
          interlocks: [{ sensor_id: 3, block_above: 28 }],
        },
      ]);
      expect(patched.status).toBe(200);
      const expected = {
        ...created,
        max_doses_per_hour: null,
        lockout_after: null,
        interlocks: [{ sensor_id: 3, block_below: null, block_above: 28 }],
      };
      expect(patched.body).toEqual([expected]);
      expect(await actuator(created.actuator_id)).toEqual(expected);

      // A patch without interlocks keeps them; the read-only fields the dashboard sends back are ignored.
      const again = await service.patch('/actuators', [{ ...expected, min_response: 0.2, lockout: { since: iso(NOW), reason: 'x' } }]);
      expect(again.body[0]).toEqual({ ...expected, min_response: 0.2 });
      const cleared = await service.patch('/actuators', [{ actuator_id: created.actuator_id, interlocks: [] }]);
      expect(cleared.body[0].interlocks).toEqual([]);
    });

    it('default to no limits, automatic min_response, lockout after 20, 3 reversed, usual over 7 days of 6 h windows, factor 2', async () => {
      const created = await create();
      expect(created).toMatchObject({
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
        interlocks: [],
        lockout: null,
        last_polled: null,
      });
      expect((await create({ lockout_after: null })).lockout_after).toBeNull();
      expect(await create({ min_response: 0.1, lockout_reversed_after: null, unusual_factor: null })).toMatchObject({
        min_response: 0.1,
        lockout_reversed_after: null,
        unusual_factor: null,
      });
    });

    const refused: [string, Record<string, unknown>, (string | number)[]][] = [
      ['a fractional max_doses_per_hour', { max_doses_per_hour: 1.5 }, ['body', 'max_doses_per_hour']],
      ['a max_doses_per_hour of 0', { max_doses_per_hour: 0 }, ['body', 'max_doses_per_hour']],
      ['negative max_seconds_per_day', { max_seconds_per_day: -1 }, ['body', 'max_seconds_per_day']],
      ['negative response_delay', { response_delay: -0.5 }, ['body', 'response_delay']],
      ['negative controller_timeout', { controller_timeout: -10 }, ['body', 'controller_timeout']],
      ['a lockout_after of 0', { lockout_after: 0 }, ['body', 'lockout_after']],
      ['a lockout_reversed_after of 0', { lockout_reversed_after: 0 }, ['body', 'lockout_reversed_after']],
      ['a lockout_reversed_after over 1000', { lockout_reversed_after: 1001 }, ['body', 'lockout_reversed_after']],
      ['usual_days under 3', { usual_days: 2 }, ['body', 'usual_days']],
      ['a fractional usual_days', { usual_days: 3.5 }, ['body', 'usual_days']],
      ['a usual_window under a minute', { usual_window: 59 }, ['body', 'usual_window']],
      ['a usual_window over a day', { usual_window: 86401 }, ['body', 'usual_window']],
      ['an unusual_factor of 1', { unusual_factor: 1 }, ['body', 'unusual_factor']],
      ['a negative min_response', { min_response: -0.1 }, ['body', 'min_response']],
      ['an interlock with no bound', { interlocks: [{ sensor_id: 3 }] }, ['body', 'interlocks', 0]],
      [
        'an interlock with null bounds',
        { interlocks: [{ sensor_id: 3, block_below: null, block_above: null }] },
        ['body', 'interlocks', 0],
      ],
      [
        'an interlock with crossed bounds',
        {
          interlocks: [
            { sensor_id: 3, block_below: 5 },
            { sensor_id: 3, block_below: 30, block_above: 20 },
          ],
        },
        ['body', 'interlocks', 1],
      ],
      ['nine interlocks', { interlocks: Array.from({ length: 9 }, () => ({ sensor_id: 3, block_below: 1 })) }, ['body', 'interlocks']],
    ];

    it.each(refused)('refuse %s with 422 on create, writing nothing', async (_what, fields, loc) => {
      const before = await actuatorsOf0();
      const res = await service.post('/actuators', { ...pump, ...fields });
      expect(res.status).toBe(422);
      expect(res.body.detail.map((d: { loc: unknown }) => d.loc)).toContainEqual(loc);
      expect(await actuatorsOf0()).toEqual(before);
    });

    it.each(refused)('refuse %s with 422 on patch (merged), writing nothing of the whole batch', async (_what, fields, loc) => {
      const target = await create({ interlocks: [{ sensor_id: 3, block_below: 1 }] });
      const before = await actuatorsOf0();
      const res = await service.patch('/actuators', [
        { actuator_id: target.actuator_id, max_seconds_per_day: 10 },
        { actuator_id: target.actuator_id, ...fields },
      ]);
      expect(res.status).toBe(422);
      const [where, ...rest] = loc;
      expect(res.body.detail.map((d: { loc: unknown }) => d.loc)).toContainEqual([where, 1, ...rest]);
      expect(await actuatorsOf0()).toEqual(before);
    });

    it('answer 404 for an interlock on an unknown sensor, writing nothing', async () => {
      const before = await actuatorsOf0();
      const res = await service.post('/actuators', { ...pump, interlocks: [{ sensor_id: 404, block_below: 1 }] });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Sensor 404 not found' });
      const target = before[0].actuator_id as number;
      const patched = await service.patch('/actuators', [
        { actuator_id: target, min_response: 3 },
        { actuator_id: target, interlocks: [{ sensor_id: 404, block_above: 1 }] },
      ]);
      expect(patched.status).toBe(404);
      expect(await actuatorsOf0()).toEqual(before);
    });
  });

  describe('sensor settings', () => {
    const trust = { valid_min: 2, valid_max: 12, stale_after: 600, stuck_after: 3600 };
    const sensorsOf0 = async () => (await service.get('/sensors/0')).body as Record<string, unknown>[];

    it('round-trip through create, read and patch; null by default', async () => {
      const plain = await service.post('/sensors/', phSensorBody);
      expect(plain.body).toMatchObject({ valid_min: null, valid_max: null, stale_after: null, stuck_after: null });
      const created = await service.post('/sensors/', { ...phSensorBody, ...trust });
      expect(created.status).toBe(200);
      expect(created.body).toMatchObject(trust);
      expect((await sensorsOf0()).find((s) => s.sensor_id === created.body.sensor_id)).toEqual(created.body);
      const patched = await service.patch('/sensors', [{ sensor_id: created.body.sensor_id, valid_max: null, stuck_after: 60 }]);
      expect(patched.body).toEqual([{ ...created.body, valid_max: null, stuck_after: 60 }]);
      expect((await sensorsOf0()).find((s) => s.sensor_id === created.body.sensor_id)).toEqual(patched.body[0]);
    });

    it('refuse valid_min > valid_max and negative seconds with 422 (patch: on the merged result), writing nothing', async () => {
      const before = await sensorsOf0();
      const crossed = await service.post('/sensors/', { ...phSensorBody, valid_min: 9, valid_max: 3 });
      expect(crossed.status).toBe(422);
      expect(crossed.body.detail[0].loc).toEqual(['body', 'valid_min']);
      for (const field of ['stale_after', 'stuck_after']) {
        const res = await service.post('/sensors/', { ...phSensorBody, [field]: -1 });
        expect(res.status).toBe(422);
        expect(res.body.detail[0].loc).toEqual(['body', field]);
      }
      const target = (await service.post('/sensors/', { ...phSensorBody, ...trust })).body;
      const merged = await service.patch('/sensors', [
        { sensor_id: target.sensor_id, stale_after: 5 },
        { sensor_id: target.sensor_id, valid_min: 13 },
      ]);
      expect(merged.status).toBe(422);
      expect(merged.body.detail[0].loc).toEqual(['body', 1, 'valid_min']);
      expect(await sensorsOf0()).toEqual([...before, target]);
    });
  });

  describe('doses', () => {
    it('are recorded by PATCH last_activated with the duration then and the newest reading then', async () => {
      const dosing = await create({ sensor_id: 3 });
      const path = `/actuators/${dosing.actuator_id}/activations`;
      expect((await service.get(path)).body).toEqual([]);

      service.clock.now = NOW + 1000;
      expect((await service.patch(`/actuators/${dosing.actuator_id}/last_activated`)).status).toBe(200);
      await service.post('/measurements', { sensor_id: 3, value: 21.5, timestamp: iso(NOW + 1500) });
      await service.post('/measurements', { sensor_id: 3, value: 99, timestamp: iso(NOW - 60_000) });
      await service.patch('/actuators', [{ actuator_id: dosing.actuator_id, activation_duration: 7.5 }]);
      service.clock.now = NOW + 2000;
      expect((await service.patch(`/actuators/${dosing.actuator_id}/last_activated`)).status).toBe(200);
      service.clock.now = NOW;

      const doses = (await service.get(path)).body;
      expect(doses).toEqual([
        {
          activation_id: expect.any(Number),
          actuator_id: dosing.actuator_id,
          activated_at: iso(NOW + 2000),
          duration: 7.5,
          value_before: 21.5,
          answered: null,
          response: null,
          reversed: null,
          volume_ml: null,
          reported: true,
          manual: false,
        },
        {
          activation_id: expect.any(Number),
          actuator_id: dosing.actuator_id,
          activated_at: iso(NOW + 1000),
          duration: 3,
          value_before: null,
          answered: null,
          response: null,
          reversed: null,
          volume_ml: null,
          reported: true,
          manual: false,
        },
      ]);
      expect(doses[0].activation_id).toBeGreaterThan(doses[1].activation_id);
    });

    it('page newest first by before and limit, within start_time and end_time', async () => {
      const dosing = await create({ sensor_id: 3 });
      const path = `/actuators/${dosing.actuator_id}/activations`;
      for (let i = 0; i < 5; i++) {
        service.clock.now = NOW + i * 60_000;
        await service.patch(`/actuators/${dosing.actuator_id}/last_activated`);
      }
      service.clock.now = NOW;
      const all = (await service.get(path)).body;
      expect(all.map((d: { activated_at: string }) => d.activated_at)).toEqual([4, 3, 2, 1, 0].map((i) => iso(NOW + i * 60_000)));
      const first = (await service.get(`${path}?limit=2`)).body;
      expect(first).toEqual(all.slice(0, 2));
      const second = (await service.get(`${path}?limit=2&before=${first[1].activation_id}`)).body;
      expect(second).toEqual(all.slice(2, 4));
      const window = (await service.get(`${path}?start_time=${iso(NOW + 60_000)}&end_time=${iso(NOW + 180_000)}`)).body;
      expect(window).toEqual(all.slice(2, 4));
    });

    it('answer 404 for an unknown actuator and 422 for a bad query', async () => {
      const missing = await service.get('/actuators/4040/activations');
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ detail: 'Actuator 4040 not found' });
      for (const [query, field] of [
        ['limit=0', 'limit'],
        ['limit=1001', 'limit'],
        ['before=-1', 'before'],
        ['start_time=yesterday', 'start_time'],
        [`start_time=${iso(NOW)}&end_time=${iso(NOW - 1)}`, 'start_time'],
      ]) {
        const res = await service.get(`/actuators/1/activations?${query}`);
        expect(res.status, query).toBe(422);
        expect(res.body.detail[0].loc, query).toEqual(['query', field]);
      }
    });

    it('go with their actuator', async () => {
      const dosing = await create({ sensor_id: 3 });
      await service.patch(`/actuators/${dosing.actuator_id}/last_activated`);
      expect((await service.request('DELETE', `/actuators/${dosing.actuator_id}`)).status).toBe(204);
      expect((await service.get(`/actuators/${dosing.actuator_id}/activations`)).status).toBe(404);
    });
  });

  describe('POST /actuators/{id}/unlock', () => {
    it('clears a lockout and the count of unanswered doses (200), 409 when not locked, 404 when unknown', async () => {
      const locked = await create();
      await service.store.actuators.setUnansweredStreak(locked.actuator_id, 20);
      await service.store.actuators.lockOut(locked.actuator_id, NOW - 5000, '20 doses in a row did not move the reading');
      expect((await actuator(locked.actuator_id))?.lockout).toEqual({
        since: iso(NOW - 5000),
        reason: '20 doses in a row did not move the reading',
      });
      const res = await service.post(`/actuators/${locked.actuator_id}/unlock`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...locked, lockout: null });
      expect(await actuator(locked.actuator_id)).toEqual({ ...locked, lockout: null });
      expect((await service.store.actuators.get(locked.actuator_id))?.unanswered_streak).toBe(0);

      const again = await service.post(`/actuators/${locked.actuator_id}/unlock`);
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ detail: `Actuator ${locked.actuator_id} is not locked out` });
      expect((await service.post('/actuators/4040/unlock')).status).toBe(404);
      expect((await service.post('/actuators/abc/unlock')).status).toBe(422);
    });
  });

  describe('pause', () => {
    const prototype = async (id: number) => (await service.get(`/prototypes/${id}`)).body;

    it('pauses for seconds or a duration, replaces the pause before, resumes, and ends by itself', async () => {
      await service.post('/prototypes', { prototype_id: 40, prototype_name: 'paused tank' });
      const res = await service.post('/prototypes/40/pause', { for: 600 });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ prototype_id: 40, paused_until: iso(NOW + 600_000) });
      expect(await prototype(40)).toEqual({ prototype_id: 40, prototype_name: 'paused tank', paused_until: iso(NOW + 600_000) });

      const replaced = await service.post('/prototypes/40/pause', { for: 'PT2H' });
      expect(replaced.body.paused_until).toBe(iso(NOW + 7_200_000));
      const shorter = await service.post('/prototypes/40/pause', { for: '00:00:30' });
      expect(shorter.body.paused_until).toBe(iso(NOW + 30_000));
      expect((await prototype(40)).paused_until).toBe(iso(NOW + 30_000));

      // Once its end has passed it reads as not paused.
      service.clock.now = NOW + 30_000;
      expect((await prototype(40)).paused_until).toBeNull();
      service.clock.now = NOW;

      await service.post('/prototypes/40/pause', { for: 86_400 });
      const resumed = await service.request('DELETE', '/prototypes/40/pause');
      expect(resumed.status).toBe(204);
      expect((await prototype(40)).paused_until).toBeNull();
      expect((await service.get('/prototypes')).body.find((p: { prototype_id: number }) => p.prototype_id === 40).paused_until).toBeNull();
    });

    it('refuses lengths outside 1 s to 24 h and what is not a duration with 422, keeping the pause as it was', async () => {
      await service.post('/prototypes', { prototype_id: 41, prototype_name: 'tank' });
      await service.post('/prototypes/41/pause', { for: 60 });
      for (const length of [0, 0.5, -5, 86_401, 'P2D', 'soon', '', null, true]) {
        const res = await service.post('/prototypes/41/pause', { for: length });
        expect(res.status, String(length)).toBe(422);
        expect(res.body.detail[0].loc[0]).toBe('body');
      }
      expect((await service.post('/prototypes/41/pause', {})).status).toBe(422);
      expect((await prototype(41)).paused_until).toBe(iso(NOW + 60_000));
    });

    it('answers 404 for an unknown prototype', async () => {
      expect((await service.post('/prototypes/4040/pause', { for: 60 })).status).toBe(404);
      expect((await service.request('DELETE', '/prototypes/4040/pause')).status).toBe(404);
    });
  });

  describe('deleting an interlock sensor', () => {
    it('is refused with 409 counting the actuators, and with cascade disables them and drops the entries', async () => {
      const guard = (await service.post('/sensors/', { ...temperatureSensorBody, prototype_id: 0 })).body.sensor_id;
      const guarded = await create({
        interlocks: [
          { sensor_id: level, block_below: 5 },
          { sensor_id: guard, block_above: 35 },
        ],
      });
      const other = await create({ sensor_id: 3, interlocks: [{ sensor_id: guard, block_below: 12 }] });

      const refused = await service.request('DELETE', `/sensors/${guard}`);
      expect(refused.status).toBe(409);
      expect(refused.body.dependents).toEqual({ sensors: 0, actuators: 2, measurements: 0, notes: 0 });
      expect(refused.body.detail).toMatch(/2 actuators/);
      expect(await actuator(guarded.actuator_id)).toEqual(guarded);

      const removed = await service.request('DELETE', `/sensors/${guard}?cascade=true`);
      expect(removed.status).toBe(204);
      expect(await actuator(guarded.actuator_id)).toEqual({
        ...guarded,
        enabled: false,
        interlocks: [{ sensor_id: level, block_below: 5, block_above: null }],
      });
      expect(await actuator(other.actuator_id)).toEqual({ ...other, enabled: false, interlocks: [] });
    });
  });
});

describe.each(storeKinds())('dosing safety writes in enforced mode (%s)', (kind) => {
  let service: TestService;
  let reader: string;
  let editor: string;
  const bus = changeBus();
  const changes: Changes['actuator'][] = [];
  bus.subscribe('actuator', (change) => changes.push(change));
  beforeAll(async () => {
    service = await startService(kind, { env: { AUTH_MODE: 'enforced' }, bus });
    service.clock.now = NOW;
    reader = await tokenFor(service.store, 'viewer', 2);
    editor = await tokenFor(service.store, 'editor', 6);
  });
  afterAll(() => service?.close());

  it('reads doses with read (2); unlocks and pauses only with modify (4)', async () => {
    expect((await service.get('/actuators/1/activations')).status).toBe(401);
    expect((await service.get('/actuators/1/activations', { token: reader })).status).toBe(200);

    await service.store.actuators.lockOut(1, NOW, 'test');
    expect((await service.post('/actuators/1/unlock', undefined, { token: reader })).status).toBe(403);
    expect((await service.store.actuators.get(1))?.lockout_since).not.toBeNull();
    expect((await service.post('/actuators/1/unlock', undefined, { token: editor })).status).toBe(200);
    // Who unlocked travels with the change, for the lockout alert to record.
    expect(changes.at(-1)).toMatchObject({ action: 'updated', actuator: { actuator_id: 1, lockout_since: null }, unlockedBy: 'editor' });

    expect((await service.post('/prototypes/0/pause', { for: 60 }, { token: reader })).status).toBe(403);
    expect((await service.get('/prototypes/0', { token: reader })).body.paused_until).toBeNull();
    expect((await service.post('/prototypes/0/pause', { for: 60 }, { token: editor })).status).toBe(200);
    expect((await service.request('DELETE', '/prototypes/0/pause', { token: reader })).status).toBe(403);
    expect((await service.get('/prototypes/0', { token: reader })).body.paused_until).toBe(iso(NOW + 60_000));
    expect((await service.request('DELETE', '/prototypes/0/pause', { token: editor })).status).toBe(204);
  });
});

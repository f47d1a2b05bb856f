import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeBus, type Changes } from '../../src/core/bus.js';
import { eventually } from '../helpers/eventually.js';
import { manualServiceTimers } from '../helpers/manual-timers.js';
import { openStream } from '../helpers/sse.js';
import { startService, type TestService } from '../helpers/service.js';
import { scratchDatabase, storeKinds } from '../helpers/stores.js';
import { tokenFor } from '../helpers/tokens.js';

/** Volumes, the daily ml limit, dose totals, the bottle's stock and its refills (docs/api.md §15), on both stores, over HTTP. */
const NOW = Date.UTC(2026, 10, 22, 12);
const HOUR = 3600_000;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();
/** An acid pump on the default pH sensor (2): 3 s a dose, no period to wait. */
const pump = {
  actuator_type: 'acid_pump',
  sensor_id: 2,
  condition_value: 6.5,
  activation_condition: 'high',
  activation_period: 0,
  activation_duration: 3,
};
const EVERYTHING = { endInclusive: false };

describe.each(storeKinds())('volumes and stock (%s)', (kind) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService(kind);
    service.clock.now = NOW;
  });
  afterAll(() => service?.close());

  const actuatorsOf0 = async () => (await service.get('/actuators/0')).body as Record<string, any>[];
  const actuator = async (id: number) => (await actuatorsOf0()).find((a) => a.actuator_id === id);
  const create = async (fields: Record<string, unknown> = {}) => {
    const res = await service.post('/actuators', { ...pump, ...fields });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  /** A run reported at `at`: the actuator as answered. */
  const run = async (id: number, at = service.clock.now) => {
    const saved = service.clock.now;
    service.clock.now = at;
    const res = await service.patch(`/actuators/${id}/last_activated`);
    service.clock.now = saved;
    expect(res.status).toBe(200);
    return res.body;
  };
  /**
   * The pump's decision as the tank's status shows it: a read that claims no dose (the state read
   * would claim one and count it), so the limits here see the reported doses only.
   */
  const state = async (id: number) => {
    const { body } = await service.get('/prototypes/0/status');
    const { state: decision } = body.actuators.find((a: { actuator: { actuator_id: number } }) => a.actuator.actuator_id === id);
    return {
      activate: decision.activate,
      status: decision.status,
      reason: decision.reason,
      duration: decision.duration,
      period: decision.period,
    };
  };
  const stockAlerts = async (id: number) => {
    await service.app.alertsSettled();
    const all = (await service.get('/alerts?state=all&limit=1000')).body as Record<string, any>[];
    return all.filter((a) => a.actuator_id === id && a.kind === 'stock_low');
  };
  const refills = (id: number) => service.store.refills.between([id], EVERYTHING);

  describe('actuator fields', () => {
    const volumes = { flow_ml_per_s: 2.5, max_ml_per_day: 250, stock_ml: 1000, stock_low_ml: 100 };

    it('round-trip through create, read and patch; null by default', async () => {
      expect(await create()).toMatchObject({ flow_ml_per_s: null, max_ml_per_day: null, stock_ml: null, stock_low_ml: null });
      const created = await create(volumes);
      expect(created).toMatchObject(volumes);
      expect(await actuator(created.actuator_id)).toEqual(created);
      // A patch leaves the stock as it is (only a refill sets it).
      const patched = await service.patch('/actuators', [{ actuator_id: created.actuator_id, stock_ml: 0, stock_low_ml: null }]);
      expect(patched.status).toBe(200);
      expect(patched.body).toEqual([{ ...created, stock_ml: 1000, stock_low_ml: null }]);
      expect(await actuator(created.actuator_id)).toEqual(patched.body[0]);
      // Numeric strings, as other numbers.
      expect(await create({ flow_ml_per_s: '0.5', stock_ml: '20' })).toMatchObject({ flow_ml_per_s: 0.5, stock_ml: 20 });
    });

    const refused: [string, Record<string, unknown>, (string | number)[]][] = [
      ['a flow of 0', { flow_ml_per_s: 0 }, ['body', 'flow_ml_per_s']],
      ['a negative flow', { flow_ml_per_s: -1 }, ['body', 'flow_ml_per_s']],
      ['a flow that is not a number', { flow_ml_per_s: 'fast' }, ['body', 'flow_ml_per_s']],
      ['a max_ml_per_day of 0', { flow_ml_per_s: 1, max_ml_per_day: 0 }, ['body', 'max_ml_per_day']],
      ['a negative max_ml_per_day', { flow_ml_per_s: 1, max_ml_per_day: -5 }, ['body', 'max_ml_per_day']],
      ['a negative stock', { flow_ml_per_s: 1, stock_ml: -0.5 }, ['body', 'stock_ml']],
      ['a negative stock_low_ml', { stock_low_ml: -1 }, ['body', 'stock_low_ml']],
      ['a max_ml_per_day without a flow', { max_ml_per_day: 100 }, ['body', 'max_ml_per_day']],
      ['a stock without a flow', { stock_ml: 100 }, ['body', 'stock_ml']],
    ];

    it.each(refused)('refuse %s with 422 on create, writing nothing', async (_what, fields, loc) => {
      const before = await actuatorsOf0();
      const res = await service.post('/actuators', { ...pump, ...fields });
      expect(res.status).toBe(422);
      expect(res.body.detail.map((d: { loc: unknown }) => d.loc)).toContainEqual(loc);
      expect(await actuatorsOf0()).toEqual(before);
    });

    // A patch ignores stock_ml, so the stock's own rules are for create and refill only.
    const refusedInPatch = refused.filter(([, fields]) => !('stock_ml' in fields));
    it.each(refusedInPatch)('refuse %s with 422 on patch (merged), writing nothing of the whole batch', async (_what, fields, loc) => {
      const target = await create();
      const before = await actuatorsOf0();
      const res = await service.patch('/actuators', [
        { actuator_id: target.actuator_id, min_response: 2 },
        { actuator_id: target.actuator_id, ...fields },
      ]);
      expect(res.status).toBe(422);
      const [where, ...rest] = loc;
      expect(res.body.detail.map((d: { loc: unknown }) => d.loc)).toContainEqual([where, 1, ...rest]);
      expect(await actuatorsOf0()).toEqual(before);
    });

    it('refuse taking the flow away from a pump whose stock is tracked (422, nothing written)', async () => {
      const target = await create({ flow_ml_per_s: 1, stock_ml: 50, max_ml_per_day: 10 });
      const before = await actuatorsOf0();
      const res = await service.patch('/actuators', [{ actuator_id: target.actuator_id, flow_ml_per_s: null }]);
      expect(res.status).toBe(422);
      expect(res.body.detail.map((d: { loc: unknown }) => d.loc)).toEqual([
        ['body', 0, 'max_ml_per_day'],
        ['body', 0, 'stock_ml'],
      ]);
      expect(await actuatorsOf0()).toEqual(before);
    });
  });

  describe('whole objects do not roll back a bottle', () => {
    it('a patch, partial or whole, ignores stock_ml; a refill sets it', async () => {
      await service.post('/measurements', { sensor_id: 2, value: 7.2 });
      const form = await create({ flow_ml_per_s: 2, stock_ml: 500 });
      const id = form.actuator_id;
      // A dose after the form was loaded: 6 ml out of the bottle.
      expect((await run(id, NOW + 1000)).stock_ml).toBe(494);

      // The form sent back whole, as the older dashboard does, with the stock it was loaded with.
      const whole = await service.patch('/actuators', [{ ...form, actuator_name: 'Acid', stock_ml: 500 }]);
      expect(whole.status, JSON.stringify(whole.body)).toBe(200);
      expect(whole.body[0]).toMatchObject({ actuator_name: 'Acid', stock_ml: 494 });
      // Partial, bulk, and an ill-typed or out-of-range stock: ignored as an unknown field is.
      for (const stock of [1000, 0, -5, 'full', null, 1e300]) {
        const res = await service.patch('/actuators', [
          { actuator_id: id, stock_ml: stock },
          { ...form, stock_ml: stock },
        ]);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      }
      expect((await actuator(id))?.stock_ml).toBe(494);
      expect(await refills(id)).toEqual([]);

      expect((await service.post(`/actuators/${id}/refill`, { stock_ml: 800 })).body.stock_ml).toBe(800);
      expect((await actuator(id))?.stock_ml).toBe(800);
    });
  });

  describe('each dose', () => {
    it('has the volume of its duration at the flow of its moment; a later flow change leaves it; null without a flow', async () => {
      await service.post('/measurements', { sensor_id: 2, value: 7.2 });
      const dosing = await create();
      await run(dosing.actuator_id, NOW + 1000);
      await service.patch('/actuators', [{ actuator_id: dosing.actuator_id, flow_ml_per_s: 2 }]);
      await run(dosing.actuator_id, NOW + 2000);
      await service.patch('/actuators', [{ actuator_id: dosing.actuator_id, flow_ml_per_s: 0.1, activation_duration: 3 }]);
      await run(dosing.actuator_id, NOW + 3000);
      await service.patch('/actuators', [{ actuator_id: dosing.actuator_id, flow_ml_per_s: 7 }]);
      const doses = (await service.get(`/actuators/${dosing.actuator_id}/activations`)).body;
      expect(doses.map((d: { activated_at: string; volume_ml: number | null }) => [d.activated_at, d.volume_ml])).toEqual([
        [iso(NOW + 3000), 0.3],
        [iso(NOW + 2000), 6],
        [iso(NOW + 1000), null],
      ]);
      expect(doses[0]).toEqual({
        activation_id: expect.any(Number),
        actuator_id: dosing.actuator_id,
        activated_at: iso(NOW + 3000),
        duration: 3,
        value_before: 7.2,
        answered: null,
        response: null,
        reversed: null,
        volume_ml: 0.3,
        reported: true,
        manual: false,
      });
    });
  });

  describe('the bottle', () => {
    it('each dose takes its volume, never below 0; low at the mark raises stock_low; at 0 the pump waits: empty', async () => {
      expect((await service.post('/measurements', { sensor_id: 2, value: 7.2 })).status).toBe(200);
      const bottle = await create({ flow_ml_per_s: 2, stock_ml: 15, stock_low_ml: 3 });
      const id = bottle.actuator_id;
      expect((await state(id)).reason).toBe('ok');

      expect((await run(id)).stock_ml).toBe(9);
      expect(await stockAlerts(id)).toEqual([]);
      expect((await run(id)).stock_ml).toBe(3);
      const [raised] = await stockAlerts(id);
      expect(raised).toMatchObject({
        kind: 'stock_low',
        severity: 'warning',
        state: 'active',
        actuator_id: id,
        sensor_id: null,
        prototype_id: 0,
        value: 3,
      });
      expect((await state(id)).reason).toBe('ok');

      // The last 3 ml: the bottle is empty, and the decision says so.
      expect((await run(id)).stock_ml).toBe(0);
      expect(await state(id)).toEqual({
        activate: false,
        status: 'Stock empty: refill the bottle',
        reason: 'empty',
        duration: 3,
        period: 0,
      });
      // A controller that runs anyway is recorded; the stock stays at 0.
      expect((await run(id)).stock_ml).toBe(0);
      expect((await actuator(id))?.stock_ml).toBe(0);
      const doses = (await service.get(`/actuators/${id}/activations`)).body;
      expect(doses.map((d: { volume_ml: number }) => d.volume_ml)).toEqual([6, 6, 6, 6]);
      expect(await stockAlerts(id)).toHaveLength(1);

      // A refill that leaves the bottle at the mark keeps the alert; one above it clears it.
      const topped = await service.post(`/actuators/${id}/refill`, { stock_ml: 3 });
      expect(topped.status).toBe(200);
      expect(topped.body).toEqual({ ...(await actuator(id)), stock_ml: 3 });
      expect((await state(id)).reason).toBe('ok');
      expect((await stockAlerts(id)).map((a) => a.state)).toEqual(['active']);
      const refilled = await service.post(`/actuators/${id}/refill`, { stock_ml: 1000 });
      expect(refilled.body.stock_ml).toBe(1000);
      expect((await stockAlerts(id)).map((a) => a.state)).toEqual(['cleared']);
      expect(await refills(id)).toEqual([
        { refill_id: expect.any(Number), actuator_id: id, refilled_at: NOW, stock_ml: 1000, author: null },
        { refill_id: expect.any(Number), actuator_id: id, refilled_at: NOW, stock_ml: 3, author: null },
      ]);
    });

    it('the stock_low alert follows the mark too: raised when it is moved over the stock, cleared when removed', async () => {
      const bottle = await create({ flow_ml_per_s: 1, stock_ml: 50, stock_low_ml: 10 });
      const id = bottle.actuator_id;
      expect(await stockAlerts(id)).toEqual([]);
      await service.patch('/actuators', [{ actuator_id: id, stock_low_ml: 50 }]);
      expect((await stockAlerts(id)).map((a) => [a.state, a.value])).toEqual([['active', 50]]);
      await service.patch('/actuators', [{ actuator_id: id, stock_low_ml: null }]);
      expect((await stockAlerts(id)).map((a) => a.state)).toEqual(['cleared']);
      // Created below its mark: raised at once.
      const low = await create({ flow_ml_per_s: 1, stock_ml: 1, stock_low_ml: 10 });
      expect((await stockAlerts(low.actuator_id)).map((a) => a.state)).toEqual(['active']);
    });

    it('max_ml_per_day holds the pump while one more dose would pass it, over a rolling 24 h', async () => {
      await service.post('/measurements', { sensor_id: 2, value: 7.2 });
      const limited = await create({ flow_ml_per_s: 2, max_ml_per_day: 12 });
      const id = limited.actuator_id;
      await run(id, NOW - HOUR);
      expect((await state(id)).reason).toBe('ok');
      await run(id, NOW - HOUR + 1);
      expect(await state(id)).toEqual({
        activate: false,
        status: 'Dose limit: at most 12 ml per 24 h',
        reason: 'limit',
        duration: 3,
        period: 0,
      });
      // A shorter dose fits what is left; a smaller daily limit counts the volumes as recorded.
      await service.patch('/actuators', [{ actuator_id: id, max_ml_per_day: 18 }]);
      expect((await state(id)).reason).toBe('ok');
      await service.patch('/actuators', [{ actuator_id: id, max_ml_per_day: 12 }]);

      // A day after the first dose it has left the window.
      service.clock.now = NOW - HOUR + DAY;
      try {
        await service.post('/measurements', { sensor_id: 2, value: 7.2 });
        expect((await state(id)).reason).toBe('ok');
      } finally {
        service.clock.now = NOW;
      }
    });
  });

  describe('POST /actuators/{id}/refill', () => {
    it('refuses a missing, negative or non-numeric stock with 422, and a pump without a flow, writing nothing', async () => {
      const bottle = await create({ flow_ml_per_s: 1, stock_ml: 40 });
      const id = bottle.actuator_id;
      for (const body of [{}, { stock_ml: -1 }, { stock_ml: 'full' }, { stock_ml: null }, { stock_ml: true }]) {
        const res = await service.post(`/actuators/${id}/refill`, body);
        expect(res.status, JSON.stringify(body)).toBe(422);
        expect(res.body.detail[0].loc).toEqual(['body', 'stock_ml']);
      }
      expect(
        (await service.request('POST', `/actuators/${id}/refill`, { raw: 'not json', headers: { 'content-type': 'application/json' } }))
          .status,
      ).toBe(400);
      const plain = await create();
      const noFlow = await service.post(`/actuators/${plain.actuator_id}/refill`, { stock_ml: 100 });
      expect(noFlow.status).toBe(422);
      expect(noFlow.body.detail).toEqual([
        { loc: ['body', 'stock_ml'], msg: 'stock_ml needs flow_ml_per_s: set the pump’s flow first', type: 'volume_needs_flow' },
      ]);
      expect((await actuator(id))?.stock_ml).toBe(40);
      expect((await actuator(plain.actuator_id))?.stock_ml).toBeNull();
      expect(await refills(id)).toEqual([]);
      expect(await refills(plain.actuator_id)).toEqual([]);
    });

    it('answers 404 for an unknown actuator and 422 for an id that is not one', async () => {
      const missing = await service.post('/actuators/4040/refill', { stock_ml: 10 });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ detail: 'Actuator 4040 not found' });
      expect((await service.post('/actuators/abc/refill', { stock_ml: 10 })).status).toBe(422);
      expect(await refills(4040)).toEqual([]);
    });

    it('refills are read by actuator or by prototype in a window, and go with their actuator', async () => {
      const bottle = await create({ flow_ml_per_s: 1, stock_ml: 10 });
      const id = bottle.actuator_id;
      for (const [n, at] of [NOW - 2 * HOUR, NOW - HOUR, NOW].entries()) {
        service.clock.now = at;
        await service.post(`/actuators/${id}/refill`, { stock_ml: 100 + n });
      }
      service.clock.now = NOW;
      const all = await refills(id);
      expect(all.map((r) => [r.refilled_at, r.stock_ml])).toEqual([
        [NOW, 102],
        [NOW - HOUR, 101],
        [NOW - 2 * HOUR, 100],
      ]);
      expect(await service.store.refills.between([id], { start: NOW - HOUR, end: NOW, endInclusive: false })).toEqual([all[1]]);
      expect(await service.store.refills.between([id], EVERYTHING, 1)).toEqual([all[0]]);
      expect(await service.store.refills.between([], EVERYTHING)).toEqual([]);
      const page = { window: { start: NOW - 2 * HOUR, end: NOW, endInclusive: true }, limit: 100 };
      const ofPrototype = await service.store.refills.ofPrototype(0, page);
      expect(ofPrototype.filter((r) => r.actuator_id === id).map(({ sensor_id: _s, ...r }) => r)).toEqual(all);
      expect(await service.store.refills.ofPrototype(4040, { window: EVERYTHING, limit: 100 })).toEqual([]);

      expect((await service.request('DELETE', `/actuators/${id}`)).status).toBe(204);
      expect(await refills(id)).toEqual([]);
    });
  });

  describe('GET /actuators/{id}/doses', () => {
    /** A pump dosed at T0 + 10 min, + 20 min (no flow then), + 65 min, and a day and a minute later. */
    const T0 = Date.UTC(2026, 10, 20);
    let id: number;
    beforeAll(async () => {
      id = (await create({ flow_ml_per_s: 2 })).actuator_id;
      await run(id, T0 + 10 * 60_000);
      await service.patch('/actuators', [{ actuator_id: id, flow_ml_per_s: null }]);
      await run(id, T0 + 20 * 60_000);
      await service.patch('/actuators', [{ actuator_id: id, flow_ml_per_s: 2, activation_duration: 1.5 }]);
      await run(id, T0 + 65 * 60_000);
      await run(id, T0 + DAY + 60_000);
    });
    const totals = async (query: string) => {
      const res = await service.get(`/actuators/${id}/doses${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    };
    const bucket = (start: number, size: number, doses: number, seconds: number, volume_ml: number | null) => ({
      start: iso(start),
      end: iso(start + size),
      doses,
      seconds,
      volume_ml,
    });

    it('totals the doses per UTC hour or day, ascending, leaving empty buckets out; 1d by default', async () => {
      const window = `start_time=${iso(T0)}&end_time=${iso(T0 + 2 * DAY)}`;
      expect(await totals(`?bucket=1h&${window}`)).toEqual([
        bucket(T0, HOUR, 2, 6, 6),
        bucket(T0 + HOUR, HOUR, 1, 1.5, 3),
        bucket(T0 + DAY, HOUR, 1, 1.5, 3),
      ]);
      const days = [bucket(T0, DAY, 3, 7.5, 9), bucket(T0 + DAY, DAY, 1, 1.5, 3)];
      expect(await totals(`?bucket=1d&${window}`)).toEqual(days);
      expect(await totals(`?${window}`)).toEqual(days);
      expect(await totals('')).toEqual(days);
      expect(await totals('?bucket=P1D')).toEqual(days);
      expect(await totals('?bucket=3600')).toHaveLength(3);
    });

    it('answers the whole buckets the window overlaps; a bucket holding only doses without a volume says null', async () => {
      expect(await totals(`?bucket=1h&start_time=${iso(T0 + 15 * 60_000)}&end_time=${iso(T0 + 61 * 60_000)}`)).toEqual([
        bucket(T0, HOUR, 2, 6, 6),
        bucket(T0 + HOUR, HOUR, 1, 1.5, 3),
      ]);
      expect(await totals(`?bucket=1h&start_time=${iso(T0 + 2 * HOUR)}&end_time=${iso(T0 + DAY)}`)).toEqual([]);
      // time_delta up to now: the hour holding now.
      service.clock.now = T0 + DAY + 30 * 60_000;
      try {
        expect(await totals('?bucket=1h&time_delta=PT10M')).toEqual([bucket(T0 + DAY, HOUR, 1, 1.5, 3)]);
      } finally {
        service.clock.now = NOW;
      }
      const lone = (await create()).actuator_id;
      await run(lone, T0);
      expect((await service.get(`/actuators/${lone}/doses`)).body).toEqual([bucket(T0, DAY, 1, 3, null)]);
    });

    it('refuses a bucket other than 1h or 1d and a bad window with 422, an unknown actuator with 404', async () => {
      for (const [query, field] of [
        ['bucket=5m', 'bucket'],
        ['bucket=2h', 'bucket'],
        ['bucket=P1M', 'bucket'],
        ['bucket=daily', 'bucket'],
        ['bucket=', 'bucket'],
        ['start_time=yesterday', 'start_time'],
        [`start_time=${iso(T0)}&end_time=${iso(T0 - 1)}`, 'start_time'],
        [`start_time=${iso(T0)}&time_delta=P1D`, 'time_delta'],
        ['time_delta=soon', 'time_delta'],
      ]) {
        const res = await service.get(`/actuators/${id}/doses?${query}`);
        expect(res.status, query).toBe(422);
        expect(res.body.detail[0].loc, query).toEqual(['query', field]);
      }
      const missing = await service.get('/actuators/4040/doses');
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ detail: 'Actuator 4040 not found' });
      expect((await service.get('/actuators/abc/doses')).status).toBe(422);
    });
  });

  describe('the dose event', () => {
    it('carries each dose, with its actuator and volume, to the streams of its sensor and prototype', async () => {
      await service.post('/prototypes', { prototype_id: 61, prototype_name: 'elsewhere' });
      const dosing = await create({ flow_ml_per_s: 0.5 });
      const mine = await openStream(`${service.url}/events?types=dose&prototype_id=0`);
      const bySensor = await openStream(`${service.url}/events?types=dose&sensor_id=2`);
      const elsewhere = await openStream(`${service.url}/events?types=dose,prototype&prototype_id=61`);
      try {
        await run(dosing.actuator_id, NOW + 5000);
        const event = await mine.next((e) => e.event === 'dose');
        const [dose] = (await service.get(`/actuators/${dosing.actuator_id}/activations?limit=1`)).body;
        expect(JSON.parse(event.data)).toEqual(dose);
        expect(dose).toMatchObject({ actuator_id: dosing.actuator_id, activated_at: iso(NOW + 5000), volume_ml: 1.5 });
        expect(JSON.parse((await bySensor.next((e) => e.event === 'dose')).data)).toEqual(dose);
        // The other prototype's stream hears of its own prototype only: a rename comes, the dose did not.
        await service.patch('/prototypes/61', { prototype_name: 'still elsewhere' });
        await elsewhere.next((e) => e.event === 'prototype');
        expect(elsewhere.events.map((e) => e.event)).toEqual(['prototype']);
      } finally {
        for (const stream of [mine, bySensor, elsewhere]) stream.close();
      }
    });
  });
});

describe.each(storeKinds())('the stock_low alert across a restart (%s)', (kind) => {
  it('is raised at start for a bottle that went low while no service was there to raise it', async () => {
    const database = await scratchDatabase(kind);
    try {
      const first = await startService(kind, { database });
      const id = (await first.post('/actuators', { ...pump, flow_ml_per_s: 1, stock_ml: 100, stock_low_ml: 10 })).body.actuator_id;
      // Written straight to the store: as a stop between a dose's commit and its alert would leave it.
      await first.store.actuators.setStock(id, 5);
      await first.app.alertsSettled();
      const lowAlerts = async (service: TestService) =>
        ((await service.get('/alerts?state=all')).body as Record<string, unknown>[]).filter((a) => a.kind === 'stock_low');
      expect(await lowAlerts(first)).toEqual([]);
      await first.close();

      const second = await startService(kind, { database });
      try {
        await second.app.alertsSettled();
        expect(await lowAlerts(second)).toMatchObject([{ actuator_id: id, state: 'active', value: 5 }]);
      } finally {
        await second.close();
      }
    } finally {
      await database.drop();
    }
  });
});

describe.each(storeKinds())('the daily ml limit in time (%s)', (kind) => {
  it('announces the pump free again at the instant its oldest dose leaves the 24 h, not a millisecond before', async () => {
    const manual = manualServiceTimers();
    const bus = changeBus();
    const service = await startService(kind, { env: { STALE_AFTER: 'P2D' }, bus, app: { liveEvents: { timers: manual.timers } } });
    manual.follow(service);
    service.clock.now = NOW;
    const decisions: Changes['decision'][] = [];
    bus.subscribe('decision', (change) => decisions.push(change));
    try {
      const id = (await service.post('/actuators', { ...pump, flow_ml_per_s: 2, max_ml_per_day: 6 })).body.actuator_id as number;
      await service.post('/measurements', { sensor_id: 2, value: 7.2 });
      await eventually(() => decisions.at(-1)?.state.reason === 'ok', 'the pump to decide ok');
      await service.request('PATCH', `/actuators/${id}/last_activated`);
      await eventually(() => decisions.at(-1)?.state.reason === 'limit', 'the limit to be announced');
      const before = decisions.length;
      manual.advanceTo(NOW + DAY - 1);
      expect(decisions).toHaveLength(before);
      manual.advanceTo(NOW + DAY);
      await eventually(() => decisions.length > before, 'the window freeing to be announced');
      expect(decisions.at(-1)).toMatchObject({ actuator: { actuator_id: id }, state: { reason: 'ok', activate: true } });
    } finally {
      await service.close();
    }
  });
});

describe.each(storeKinds())('volumes and stock in enforced mode (%s)', (kind) => {
  let service: TestService;
  let reader: string;
  let editor: string;
  beforeAll(async () => {
    service = await startService(kind, { env: { AUTH_MODE: 'enforced' } });
    service.clock.now = NOW;
    reader = await tokenFor(service.store, 'viewer', 2);
    editor = await tokenFor(service.store, 'editor', 6);
  });
  afterAll(() => service?.close());

  it('reads dose totals with read (2); refills only with modify (4), recording who', async () => {
    const created = await service.post('/actuators', { ...pump, flow_ml_per_s: 1, stock_ml: 5 }, { token: editor });
    expect(created.status).toBe(200);
    const id = created.body.actuator_id;
    expect((await service.get(`/actuators/${id}/doses`)).status).toBe(401);
    expect((await service.get(`/actuators/${id}/doses`, { token: reader })).status).toBe(200);

    expect((await service.post(`/actuators/${id}/refill`, { stock_ml: 500 })).status).toBe(401);
    expect((await service.post(`/actuators/${id}/refill`, { stock_ml: 500 }, { token: reader })).status).toBe(403);
    expect((await service.store.actuators.get(id))?.stock_ml).toBe(5);
    expect(await service.store.refills.between([id], EVERYTHING)).toEqual([]);

    const refilled = await service.post(`/actuators/${id}/refill`, { stock_ml: 500 }, { token: editor });
    expect(refilled.status).toBe(200);
    expect(refilled.body.stock_ml).toBe(500);
    expect(await service.store.refills.between([id], EVERYTHING)).toMatchObject([{ stock_ml: 500, author: 'editor' }]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { bareConnection, scratchDatabase, storeKinds } from '../helpers/stores.js';

/**
 * Bounds that cannot stall (docs/safety.md): every seconds field at most a year, every lockout
 * count at most 1000, volumes and flows bounded so every product stays finite; else 422 and
 * nothing written, through POST, the partial and whole-object PATCH and a bulk PATCH. And a
 * store that holds huge values anyway (written straight into it) starts and answers.
 */
const NOW = Date.UTC(2026, 10, 22, 12);
const YEAR = 31_536_000;
const pump = {
  actuator_type: 'acid_pump',
  sensor_id: 2,
  condition_value: 6.5,
  activation_condition: 'high',
  activation_period: 300,
  activation_duration: 3,
  enabled: false,
};
const sensor = {
  sensor_type: 'ph',
  prototype_id: 0,
  sensor_unit: 'pH',
  threshold_critically_low: 4,
  threshold_low: 5.5,
  threshold_high: 7,
  threshold_critically_high: 8,
};

/** Each refused actuator setting, and the largest one accepted. */
const ACTUATOR_BOUNDS: [string, unknown, unknown][] = [
  ['activation_period', YEAR + 1, YEAR],
  ['activation_period', 1e300, YEAR],
  ['activation_duration', YEAR + 0.5, YEAR],
  ['max_seconds_per_day', 1e13, YEAR],
  ['response_delay', YEAR + 1, YEAR],
  ['controller_timeout', 1e13, YEAR],
  ['lockout_after', 1001, 1000],
  ['flow_ml_per_s', 1e308, 1_000_000],
  ['max_ml_per_day', 1e300, 1e9],
  ['stock_low_ml', 1e10, 1e9],
];
const SENSOR_BOUNDS: [string, unknown, unknown][] = [
  ['stale_after', YEAR + 1, YEAR],
  ['stuck_after', 1e300, YEAR],
];

describe.each(storeKinds())('setting bounds (%s)', (kind) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService(kind, { now: NOW });
  });
  afterAll(() => service?.close());

  const actuators = async () => (await service.get('/actuators/0')).body as Record<string, unknown>[];
  const sensors = async () => (await service.get('/sensors/0')).body as Record<string, unknown>[];
  /** A flow where a volume needs one. */
  const withFlow = (field: string, value: unknown) =>
    field === 'max_ml_per_day' || field === 'stock_low_ml' ? { flow_ml_per_s: 1, [field]: value } : { [field]: value };

  it.each(ACTUATOR_BOUNDS)(
    'actuator %s = %s: 422 on create, partial, whole-object and bulk patch; nothing written',
    async (field, bad, ok) => {
      const created = await service.post('/actuators', { ...pump, ...withFlow(field, ok) });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      expect(created.body[field]).toBe(ok);
      const before = await actuators();

      const refusedCreate = await service.post('/actuators', { ...pump, ...withFlow(field, bad) });
      expect(refusedCreate.status).toBe(422);
      expect(refusedCreate.body.detail.some((d: { loc: string[] }) => d.loc.includes(field))).toBe(true);

      const id = created.body.actuator_id;
      const partial = await service.patch('/actuators', [{ actuator_id: id, [field]: bad }]);
      expect(partial.status).toBe(422);
      const whole = await service.patch('/actuators', [{ ...created.body, [field]: bad }]);
      expect(whole.status).toBe(422);
      // Bulk: a good element beside the bad one is not written either.
      const bulk = await service.patch('/actuators', [
        { actuator_id: id, actuator_name: 'renamed' },
        { ...created.body, [field]: bad },
      ]);
      expect(bulk.status).toBe(422);
      expect(await actuators()).toEqual(before);
    },
  );

  it.each(SENSOR_BOUNDS)('sensor %s = %s: 422 on create and patch; nothing written', async (field, bad, ok) => {
    const created = await service.post('/sensors/', { ...sensor, [field]: ok });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const before = await sensors();
    expect((await service.post('/sensors/', { ...sensor, [field]: bad })).status).toBe(422);
    expect((await service.patch('/sensors', [{ sensor_id: created.body.sensor_id, [field]: bad }])).status).toBe(422);
    expect((await service.patch('/sensors', [{ ...created.body, [field]: bad }])).status).toBe(422);
    const bulk = await service.patch('/sensors', [
      { sensor_id: created.body.sensor_id, sensor_unit: 'other' },
      { sensor_id: created.body.sensor_id, [field]: bad },
    ]);
    expect(bulk.status).toBe(422);
    expect(await sensors()).toEqual(before);
  });

  it('a refill beyond the volume bound: 422, the stock as it was', async () => {
    const created = await service.post('/actuators', { ...pump, flow_ml_per_s: 1, stock_ml: 500 });
    const id = created.body.actuator_id;
    expect((await service.post(`/actuators/${id}/refill`, { stock_ml: 1e300 })).status).toBe(422);
    expect((await actuators()).find((a) => a.actuator_id === id)?.stock_ml).toBe(500);
  });
});

describe.each(storeKinds())('huge values written straight into the store (%s)', (kind) => {
  it('the service starts, decides, raises its alarms and answers', async () => {
    const database = await scratchDatabase(kind);
    try {
      let service = await startService(kind, { database, now: NOW });
      const created = await service.post('/actuators', { ...pump, enabled: true, controller_timeout: 60 });
      const id = created.body.actuator_id;
      await service.close();

      const { db } = bareConnection(kind, database.url);
      await db
        .updateTable('actuators')
        .set({ activation_period: 1e300, controller_timeout: 1e13, response_delay: 1e300, max_seconds_per_day: 1e300 })
        .where('actuator_id', '=', id)
        .execute();
      await db.updateTable('sensors').set({ stuck_after: 1e300, stale_after: 1e15 }).where('sensor_id', '=', 2).execute();
      await db.destroy();

      service = await startService(kind, { database, now: NOW + 1000, app: { logger: { level: 'error' } } });
      try {
        // Three equal readings: the stuck rule now looks for when time alone makes the probe stuck.
        const readings = [3, 2, 1].map((s) => ({ sensor_id: 2, value: 7, timestamp: new Date(NOW + 1000 - s * 100).toISOString() }));
        expect((await service.post('/measurements', readings)).status).toBe(200);
        const state = await service.get(`/actuators/${id}/state`);
        expect(state.status).toBe(200);
        expect(state.body.activate).toBe(false);
        expect((await service.get('/healthz')).status).toBe(200);
        const listed = await service.get('/actuators/0');
        expect(listed.status, listed.text).toBe(200);
      } finally {
        await service.close();
      }
    } finally {
      await database.drop();
    }
  });
});

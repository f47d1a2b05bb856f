import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { startService, type TestService } from '../helpers/service.js';
import { type ScratchDatabase, scratchDatabase } from '../helpers/stores.js';

/**
 * Two instances on one PostgreSQL database take each dose from one bottle (docs/api.md §15): run
 * reports arriving through both at once each take their volume in the transaction that records
 * the dose, so none is lost and the stock never goes below 0; the stock_low alert is raised once,
 * and both instances answer `empty` once the bottle is.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('the bottle across instances on PostgreSQL', () => {
  let database: ScratchDatabase;
  let a: TestService;
  let b: TestService;
  beforeAll(async () => {
    database = await scratchDatabase('postgres');
    a = await startService('postgres', { database });
    b = await startService('postgres', { database });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  const REPORTS = 40;
  /** REPORTS run reports at once, every other one through the other instance. */
  const reportAtOnce = (id: number) =>
    Promise.all(
      Array.from(
        { length: REPORTS },
        async (_, n) => (await (n % 2 === 0 ? a : b).request('PATCH', `/actuators/${id}/last_activated`)).status,
      ),
    );
  const stockOf = async (id: number) => (await a.store.actuators.get(id))?.stock_ml;
  const stockAlerts = async (id: number) => {
    await a.app.alertsSettled();
    await b.app.alertsSettled();
    return ((await a.get('/alerts?state=all&limit=1000')).body as Record<string, unknown>[]).filter(
      (alert) => alert.actuator_id === id && alert.kind === 'stock_low',
    );
  };

  /**
   * The pump's decision as the tank's status shows it through `service`: a state read answering
   * activate: true would claim a dose, and the other instance would then answer `claimed`.
   */
  const decisionThrough = async (service: TestService, prototypeId: number, id: number) =>
    (
      (await service.get(`/prototypes/${prototypeId}/status`)).body.actuators as {
        actuator: { actuator_id: number };
        state: { reason: string };
      }[]
    ).find((a) => a.actuator.actuator_id === id)?.state;

  it('loses no subtraction when run reports arrive through both at once, and stops at 0', async () => {
    await a.post('/prototypes', { prototype_id: 9, prototype_name: 'tank' });
    const sensor = (
      await a.post('/sensors/', {
        sensor_type: 'ph',
        prototype_id: 9,
        sensor_unit: 'pH',
        threshold_critically_low: 0,
        threshold_low: 5,
        threshold_high: 7,
        threshold_critically_high: 14,
      })
    ).body.sensor_id as number;
    const pump = await a.post('/actuators', {
      actuator_type: 'acid_pump',
      sensor_id: sensor,
      condition_value: 6.5,
      activation_condition: 'high',
      activation_period: 0,
      activation_duration: 2,
      flow_ml_per_s: 0.75,
      stock_ml: 1000,
      stock_low_ml: 960,
    });
    expect(pump.status).toBe(200);
    const id = pump.body.actuator_id as number;

    // 40 doses of 1.5 ml: exactly 60 ml gone.
    expect(await reportAtOnce(id)).toEqual(Array(REPORTS).fill(200));
    expect(await stockOf(id)).toBe(940);
    const doses = await a.store.activations.since(id, 0);
    expect(doses).toHaveLength(REPORTS);
    expect(doses.every((d) => d.volume_ml === 1.5)).toBe(true);
    expect((await stockAlerts(id)).map((alert) => alert.state)).toEqual(['active']);

    // 20 ml left: the bottle empties part way, never below 0, and both instances say so.
    await a.post(`/actuators/${id}/refill`, { stock_ml: 20 });
    expect(await reportAtOnce(id)).toEqual(Array(REPORTS).fill(200));
    expect(await stockOf(id)).toBe(0);
    expect(await a.store.activations.since(id, 0)).toHaveLength(2 * REPORTS);
    expect((await a.post('/measurements', { sensor_id: sensor, value: 7 })).status).toBe(200);
    for (const service of [a, b]) {
      await eventually(async () => (await decisionThrough(service, 9, id))?.reason === 'empty', 'the empty bottle to show');
    }
    // One stock_low alert all along: the refill to 20 left it at or under the mark.
    expect((await stockAlerts(id)).map((alert) => alert.state)).toEqual(['active']);
    await b.post(`/actuators/${id}/refill`, { stock_ml: 1000 });
    expect((await stockAlerts(id)).map((alert) => alert.state)).toEqual(['cleared']);
    for (const service of [a, b]) {
      await eventually(async () => (await decisionThrough(service, 9, id))?.reason === 'ok', 'the refill to show');
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeBus } from '../../src/core/bus.js';
import { eventually } from '../helpers/eventually.js';
import { startService, type TestService } from '../helpers/service.js';
import { type ScratchDatabase, scratchDatabase } from '../helpers/stores.js';

/**
 * Two instances on one PostgreSQL database decide as one (docs/api.md §14): what is committed through
 * one — a reading, a dose, a lockout — reaches the decision answered by the other, relayed.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('the dosing decision across instances on PostgreSQL', () => {
  let database: ScratchDatabase;
  let a: TestService;
  let b: TestService;
  const busOfA = changeBus();
  beforeAll(async () => {
    database = await scratchDatabase('postgres');
    a = await startService('postgres', { database, bus: busOfA });
    b = await startService('postgres', { database });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  /** The pump's decision as the tank's status shows it through that instance: a read that claims no dose. */
  const reasonAt = async (service: TestService, id: number) =>
    (await service.get('/prototypes/7/status')).body.actuators.find(
      (a: { actuator: { actuator_id: number } }) => a.actuator.actuator_id === id,
    )?.state.reason as string;

  it('a dose reported through one instance holds the limit seen through the other; a lockout too', async () => {
    await a.post('/prototypes', { prototype_id: 7, prototype_name: 'tank' });
    const sensor = (
      await a.post('/sensors/', {
        sensor_type: 'ph',
        prototype_id: 7,
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
      max_doses_per_hour: 1,
    });
    const id = pump.body.actuator_id as number;
    expect((await a.post('/measurements', { sensor_id: sensor, value: 7 })).status).toBe(200);
    await eventually(async () => (await reasonAt(b, id)) === 'ok', 'the reading to reach the other instance');
    expect((await a.request('PATCH', `/actuators/${id}/last_activated`)).status).toBe(200);
    expect(await reasonAt(a, id)).toBe('limit');
    await eventually(async () => (await reasonAt(b, id)) === 'limit', 'the dose to reach the other instance');

    // A lockout committed through A (as the judging does: the repository, then an `actuator` change).
    await a.patch('/actuators', [{ actuator_id: id, max_doses_per_hour: null }]);
    await eventually(async () => (await reasonAt(b, id)) === 'ok', 'the setting to reach the other instance');
    const locked = await a.store.actuators.lockOut(id, Date.now(), '20 unanswered doses in a row');
    expect(locked).toBeDefined();
    busOfA.publish('actuator', { action: 'updated', actuator: locked! });
    await eventually(async () => (await reasonAt(b, id)) === 'locked_out', 'the lockout to reach the other instance');
    expect((await b.post(`/actuators/${id}/unlock`)).status).toBe(200);
    await eventually(async () => (await reasonAt(a, id)) === 'ok', 'the unlock to reach the first instance');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';

/**
 * A refill and run reports of the same pump side by side (PostgreSQL runs them concurrently): the
 * journal lists them in the order they changed the bottle (docs/api.md §15).
 */
describe.runIf(process.env.TEST_DATABASE_URL)('journal order of a refill among concurrent doses (postgres)', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService('postgres');
  });
  afterAll(() => service?.close());

  it('lists after the refill exactly the doses that took from the refilled bottle', async () => {
    const pump = await service.post('/actuators', {
      actuator_type: 'acid_pump',
      sensor_id: 2,
      condition_value: 6.5,
      activation_condition: 'high',
      activation_period: 0,
      activation_duration: 1,
      flow_ml_per_s: 1,
      stock_ml: 100_000,
    });
    const id = pump.body.actuator_id as number;
    for (let round = 0; round < 5; round++) {
      const runs = Array.from({ length: 8 }, () => service.patch(`/actuators/${id}/last_activated`));
      const refill = service.post(`/actuators/${id}/refill`, { stock_ml: 1000 + round });
      const answers = await Promise.all([refill, ...runs]);
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
      const stock = (await service.get('/actuators/0')).body.find((a: { actuator_id: number }) => a.actuator_id === id).stock_ml;
      const tookFromRefill = 1000 + round - stock;
      const journal = (await service.get('/prototypes/0/journal?type=dose,refill&limit=1000')).body as {
        type: string;
        at: string;
        actuator_id: number;
        detail: { stock_ml?: number };
      }[];
      const mine = journal.filter((e) => e.actuator_id === id);
      const refillEntry = mine.find((e) => e.type === 'refill' && e.detail.stock_ml === 1000 + round)!;
      const doses = mine.filter((e) => e.type === 'dose').slice(0, 8 * (round + 1));
      const after = doses.filter((d) => Date.parse(d.at) > Date.parse(refillEntry.at)).length;
      const atOrAfter = doses.filter((d) => Date.parse(d.at) >= Date.parse(refillEntry.at)).length;
      expect(tookFromRefill, `round ${round}`).toBeGreaterThanOrEqual(after);
      expect(tookFromRefill, `round ${round}`).toBeLessThanOrEqual(atOrAfter);
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';

const NOW = Date.UTC(2026, 10, 22, 12);
const iso = (ms: number) => new Date(ms).toISOString();

/** A reading stamped ahead of its arrival never outranks the real readings after it (docs/api.md §2.1, §14). */
describe.each(storeKinds())('readings stamped ahead of their arrival (%s)', (kind) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService(kind, { now: NOW });
  });
  afterAll(() => service?.close());

  it('are kept at their receive time: the next real reading is the newest, and the pump decides on it', async () => {
    // An acid pump on the default pH sensor (2): runs while the pH is above 6.5.
    const pump = await service.post('/actuators', {
      actuator_type: 'acid_pump',
      sensor_id: 2,
      condition_value: 6.5,
      activation_condition: 'high',
      activation_period: 0,
      activation_duration: 3,
    });
    expect(pump.status).toBe(200);
    const id = pump.body.actuator_id;
    // 290 s ahead (allowed): a fast clock says the pH is high.
    const ahead = await service.post('/measurements', { sensor_id: 2, value: 7.5, timestamp: iso(NOW + 290_000) });
    expect(ahead.status).toBe(200);
    expect(ahead.body.timestamp).toBe(iso(NOW));
    expect((await service.get(`/actuators/${id}/state`)).body).toMatchObject({ activate: true });

    // Ten seconds later a real reading: the pH is fine.
    service.clock.now = NOW + 10_000;
    expect((await service.post('/measurements', { sensor_id: 2, value: 6.0, timestamp: iso(NOW + 10_000) })).status).toBe(200);
    const last = await service.get('/measurements/2/last');
    expect(last.body).toMatchObject({ value: 6.0, timestamp: iso(NOW + 10_000) });
    const state = await service.get(`/actuators/${id}/state`);
    expect(state.body).toMatchObject({ activate: false });
  });

  it('still refuses a stamp more than 5 minutes ahead, writing nothing', async () => {
    const before = (await service.get('/measurements/2/last')).body;
    const res = await service.post('/measurements', { sensor_id: 2, value: 9, timestamp: iso(service.clock.now! + 300_001) });
    expect(res.status).toBe(422);
    expect((await service.get('/measurements/2/last')).body).toEqual(before);
  });
});

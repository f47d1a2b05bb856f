import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';

/** What the existing clients do, replayed over a real port. */
describe.each(storeKinds())('existing clients against the service (%s)', (kind) => {
  let service: TestService;
  // After the default pump's creation (its last_activated is the real time of the first start).
  const start = Date.now() + 60_000;
  beforeAll(async () => {
    service = await startService(kind);
    service.clock.now = start;
  });
  afterAll(() => service?.close());

  it('a sensor script posts readings with the sensor id taken from argv', async () => {
    const res = await fetch(`${service.url}/measurements`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ value: 6.4, sensor_id: '2' }),
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ sensor_id: 2, value: 6.4 });
  });

  it('a pump loop polls, runs, reports, and waits one period', async () => {
    // The default acid pump (actuator 1) watches the ec sensor (1): low, condition 0, period 5 s, duration 2 s.
    await service.patch('/actuators', [{ actuator_id: 1, condition_value: 1.5 }]);
    await service.post('/measurements', { sensor_id: '1', value: 1.2 });
    service.clock.now = start + 10_000;
    const poll = async () => (await fetch(`${service.url}/actuators/1/state`)).json() as Promise<{ activate: boolean; duration: number; period: number }>;

    const first = await poll();
    expect(first).toMatchObject({ activate: true, duration: 2, period: 5 });
    // "Runs" the pump for `duration`, then reports with an empty body, as the controller does.
    const reported = await fetch(`${service.url}/actuators/1/last_activated`, { method: 'PATCH' });
    expect(reported.status).toBe(200);
    expect((await poll()).activate).toBe(false);
    service.clock.now = start + 14_999;
    expect((await poll()).activate).toBe(false);
    service.clock.now = start + 15_000;
    expect((await poll()).activate).toBe(true);
  });

  it('the dashboard reads prototype 0, a 7-day window, and patches back the actuators it was given', async () => {
    service.clock.now = start + 20_000;
    const sensors = (await (await fetch(`${service.url}/sensors/0`)).json()) as { sensor_type: string }[];
    expect(sensors.map((s: { sensor_type: string }) => s.sensor_type)).toEqual(['ec', 'ph', 'temperature']);
    const week = await (await fetch(`${service.url}/measurements/2?time_delta=07d,00:00:00`)).json();
    expect(week).toEqual([expect.objectContaining({ sensor_id: 2, value: 6.4 })]);
    const actuators = (await (await fetch(`${service.url}/actuators/0`)).json()) as Record<string, unknown>[];
    const edited = actuators.map((a: Record<string, unknown>) => ({ ...a, enabled: false }));
    const res = await fetch(`${service.url}/actuators`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(edited),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(actuators.map((a: Record<string, unknown>) => ({ ...a, enabled: false })));
    const state = (await (await fetch(`${service.url}/actuators/1/state`)).json()) as { status: string };
    expect(state.status).toBe('Actuator disabled');
  });
});

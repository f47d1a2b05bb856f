import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';

type Activation = { activate: boolean; status: string; duration: number; period: number };
type Actuator = Record<string, unknown> & { actuator_id: number; last_activated: string };
const DAY = 24 * 3600_000;

/**
 * What the existing clients do, replayed over a real port with plain fetch calls shaped like
 * theirs: a sensor script, a pump controller loop and the dashboard. The service's clock is the
 * test's (`clock.now`), so the pump's rhythm is checked to the millisecond without sleeping.
 */
describe.each(storeKinds())('existing clients against the service (%s)', (kind) => {
  let service: TestService;
  // After the default pump's creation (its last_activated is the real time of the first start).
  const start = Date.now() + 60_000;
  beforeAll(async () => {
    service = await startService(kind);
    service.clock.now = start;
  });
  afterAll(() => service?.close());

  const call = (method: string, path: string, init: RequestInit = {}) => fetch(`${service.url}${path}`, { method, ...init });
  const json = (body: unknown): RequestInit => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const readJson = async <T>(path: string): Promise<T> => {
    const res = await call('GET', path);
    expect(res.status).toBe(200);
    return (await res.json()) as T;
  };

  it('a sensor script posts readings with the sensor id taken from argv', async () => {
    const res = await call('POST', '/measurements', json({ value: 6.4, sensor_id: '2' }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      measurement_id: expect.any(Number),
      sensor_id: 2,
      value: 6.4,
      timestamp: new Date(start).toISOString(),
    });
    // A reading from a device that was offline for eight days, sent late with its own timestamp.
    const late = await call(
      'POST',
      '/measurements',
      json({ value: 5.9, sensor_id: '2', timestamp: new Date(start - 8 * DAY).toISOString() }),
    );
    expect(late.status).toBe(200);
  });

  it('a pump controller polls, runs, reports with an empty form body, and waits one period', async () => {
    // The default acid pump (actuator 1), set as the original seeded it: on the ec sensor (1), low,
    // period 5 s, duration 2 s, enabled. A condition of 1.5 with a reading of 1.2 makes it want to run.
    const original = { sensor_id: 1, activation_condition: 'low', activation_period: 5, enabled: true };
    expect((await call('PATCH', '/actuators', json([{ actuator_id: 1, ...original, condition_value: 1.5 }]))).status).toBe(200);
    expect((await call('POST', '/measurements', json({ value: 1.2, sensor_id: '1' }))).status).toBe(200);

    // The controller's loop, one poll a second for 30 s of service time.
    const runs: number[] = [];
    const t0 = start + 10_000;
    for (let t = t0; t < t0 + 30_000; t += 1000) {
      service.clock.now = t;
      const state = await readJson<Activation>('/actuators/1/state');
      expect(state).toMatchObject({ duration: 2, period: 5 });
      if (!state.activate) {
        expect(state.status).toBe(runs.length === 0 ? 'OK' : 'Activation period not elapsed');
        continue;
      }
      expect(state.status).toBe('OK');
      runs.push(t - t0);
      // "Runs" the pump for `duration` seconds, then reports as the controller does: PATCH with an
      // empty form body (content-length 0).
      service.clock.now = t + state.duration * 1000;
      const reported = await call('PATCH', '/actuators/1/last_activated', {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: '',
      });
      expect(reported.status).toBe(200);
      expect(((await reported.json()) as Actuator).last_activated).toBe(new Date(t + 2000).toISOString());
      t += 2000;
    }
    // Run at 0 (2 s), report at 2, wait 5 s: the next poll that may run is at 7, then 14, 21, 28.
    expect(runs).toEqual([0, 7000, 14_000, 21_000, 28_000]);

    // The exact edge: reported at t0 + 30 s, false until the full period has passed.
    service.clock.now = t0 + 30_000;
    expect((await call('PATCH', '/actuators/1/last_activated')).status).toBe(200);
    service.clock.now = t0 + 34_999;
    expect((await readJson<Activation>('/actuators/1/state')).activate).toBe(false);
    service.clock.now = t0 + 35_000;
    expect((await readJson<Activation>('/actuators/1/state')).activate).toBe(true);
  });

  it("the dashboard's add-actuator form: preflight, then a JSON POST that it treats as saved only on exactly 200", async () => {
    const origin = 'http://localhost:4200';
    const preflight = await call('OPTIONS', '/actuators', {
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBeLessThan(300);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    // What Angular's HttpClient sends for the form: numbers as the number inputs give them, the
    // optional name left empty, and its default Accept header.
    const form = {
      actuator_type: 'base_pump',
      sensor_id: 2,
      condition_value: 5.5,
      activation_condition: 'low',
      activation_period: 600,
      activation_duration: 3,
      actuator_name: null,
      enabled: true,
    };
    const res = await call('POST', '/actuators', {
      headers: { 'content-type': 'application/json', accept: 'application/json, text/plain, */*', origin },
      body: JSON.stringify(form),
    });
    // The dashboard tests `res.status === 200`: anything else shows "an error occurred" although the actuator was saved.
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const created = (await res.json()) as Actuator;
    expect(created).toMatchObject({ ...form, actuator_id: expect.any(Number), last_activated: expect.any(String) });
    expect((await readJson<Actuator[]>('/actuators/0')).map((a) => a.actuator_id)).toContain(created.actuator_id);
    // Removed again so the next step sees the dashboard's prototype as it was.
    expect((await call('DELETE', `/actuators/${created.actuator_id}`, { headers: { origin } })).status).toBe(204);
  });

  it('the dashboard reads prototype 0, a 7-day window, and patches back the actuators it was given', async () => {
    service.clock.now = start + 100_000;
    const origin = 'http://dashboard.example:4200';

    const sensors = await readJson<{ sensor_id: number; sensor_type: string }[]>('/sensors/0');
    expect(sensors.map((s) => [s.sensor_id, s.sensor_type])).toEqual([
      [1, 'ec'],
      [2, 'ph'],
      [3, 'temperature'],
    ]);
    const week = await readJson<{ sensor_id: number; value: number }[]>('/measurements/2?time_delta=07d,00:00:00');
    // The eight-day-old reading is outside the window.
    expect(week).toEqual([{ measurement_id: expect.any(Number), sensor_id: 2, value: 6.4, timestamp: new Date(start).toISOString() }]);
    const given = await readJson<Actuator[]>('/actuators/0');
    expect(given.map((a) => a.actuator_id)).toEqual([1]);

    // While the user edits, the pump runs and reports: the dashboard's copy of last_activated is now old.
    service.clock.now = start + 110_000;
    expect((await readJson<Activation>('/actuators/1/state')).activate).toBe(true);
    expect(
      (await call('PATCH', '/actuators/1/last_activated', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' }))
        .status,
    ).toBe(200);

    // The browser asks first (another origin, a JSON PATCH), then sends back the whole objects.
    const preflight = await call('OPTIONS', '/actuators', {
      headers: { origin, 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBeLessThan(300);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('PATCH');
    const edited = given.map((a) => ({ ...a, condition_value: 1.0, actuator_name: 'acid' }));
    const res = await call('PATCH', '/actuators', {
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify(edited),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const saved = (await res.json()) as Actuator[];
    // The edits are kept; last_activated and last_polled are the pump's poll and report (the
    // controller's contact), not the dashboard's stale copies.
    const contact = new Date(start + 110_000).toISOString();
    expect(given[0].last_polled).not.toBe(contact);
    expect(saved).toEqual(
      given.map((a) => ({ ...a, condition_value: 1.0, actuator_name: 'acid', last_activated: contact, last_polled: contact })),
    );
    expect(await readJson<Actuator[]>('/actuators/0')).toEqual(saved);
    // So the pump is still waiting out its period.
    service.clock.now = start + 112_000;
    expect(await readJson<Activation>('/actuators/1/state')).toMatchObject({ activate: false, status: 'Activation period not elapsed' });

    // Switching the pump off from the dashboard stops it at once.
    const off = await call('PATCH', '/actuators', json(saved.map((a) => ({ ...a, enabled: false }))));
    expect(off.status).toBe(200);
    service.clock.now = start + 200_000;
    expect(await readJson<Activation>('/actuators/1/state')).toMatchObject({ activate: false, status: 'Actuator disabled' });
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { basePumpBody, phSensorBody } from '../helpers/bodies.js';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';

/**
 * The state a controller polls is decided once per change and kept in between
 * (actuators/kept-decisions.ts): every poll after a write or after time alone changes the decision
 * answers the new one, never the kept one. Each step polls several times first, so that a decision
 * is kept when the change comes; both ways in are polled: the fast path in front of the routes,
 * and the route itself (a query string takes the route).
 */
const NOW = Date.UTC(2026, 10, 22, 12);
const iso = (ms: number) => new Date(ms).toISOString();
const PATHS = [
  ['the fast path', ''],
  ['the route', '?via=route'],
] as const;

describe.each(storeKinds())('the kept state answers every change at once (%s)', (kind) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService(kind);
  });
  beforeEach(() => {
    service.clock.now = NOW;
  });
  afterAll(() => service?.close());

  /** A pump on a fresh pH sensor with a reading of 5 (below 5.5: it should run), last run at NOW. */
  async function pump(): Promise<{ sensor: number; id: number }> {
    const sensor = (await service.post('/sensors/', phSensorBody)).body.sensor_id as number;
    const res = await service.post('/actuators', basePumpBody(sensor));
    expect(res.status).toBe(200);
    expect((await service.post('/measurements', { sensor_id: sensor, value: 5 })).status).toBe(200);
    return { sensor, id: res.body.actuator_id as number };
  }

  /** Polls three times; every answer must be the same, and is returned. */
  async function polled(id: number, query: string): Promise<Record<string, unknown>> {
    const answers = [];
    for (let i = 0; i < 3; i++) {
      const res = await service.get(`/actuators/${id}/state${query}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      answers.push(res.body);
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    return answers[0];
  }

  /**
   * Polls three times while the pump should run: the first read claims the dose and is told to
   * run, the other two are told `claimed` (a dose is a claim). The first answer is returned.
   */
  async function claimedOnce(id: number, query: string): Promise<Record<string, unknown>> {
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push((await service.get(`/actuators/${id}/state${query}`)).body);
    expect(answers[0]).toMatchObject({ activate: true });
    for (const later of answers.slice(1)) {
      expect(later).toMatchObject({ activate: false, reason: 'claimed', duration: answers[0].duration, period: answers[0].period });
    }
    return answers[0];
  }
  /** The controller reports the claimed run: the claim closes, the period runs from now. */
  const report = async (id: number) => expect((await service.request('PATCH', `/actuators/${id}/last_activated`)).status).toBe(200);

  it.each(PATHS)('time alone: the period elapsing to the millisecond, and a clock set back (%s)', async (_way, query) => {
    const { id } = await pump();
    expect(await polled(id, query)).toMatchObject({ activate: false, reason: 'waiting' });
    service.clock.now = NOW + 59_999;
    expect(await polled(id, query)).toMatchObject({ activate: false, reason: 'waiting' });
    service.clock.now = NOW + 60_000;
    expect(await claimedOnce(id, query)).toEqual({ activate: true, status: 'OK', reason: 'ok', duration: 3, period: 60 });
    // Set back before the claim: its run is still ahead, so every read is told it is claimed.
    service.clock.now = NOW + 59_999;
    expect(await polled(id, query)).toMatchObject({ activate: false, reason: 'claimed' });
  });

  it.each(PATHS)('time alone: the reading turning stale (%s)', async (_way, query) => {
    const { sensor, id } = await pump();
    await service.patch('/sensors', [{ sensor_id: sensor, stale_after: 120 }]);
    service.clock.now = NOW + 120_000;
    expect(await claimedOnce(id, query)).toMatchObject({ activate: true, reason: 'ok' });
    service.clock.now = NOW + 120_001;
    expect(await polled(id, query)).toMatchObject({ activate: false, reason: 'stale' });
  });

  it.each(PATHS)('every write that changes the decision or its fields (%s)', async (_way, query) => {
    const { sensor, id } = await pump();
    service.clock.now = NOW + 60_000;
    expect(await claimedOnce(id, query)).toMatchObject({ activate: true, reason: 'ok', duration: 3, period: 60 });
    await report(id);
    service.clock.now = NOW + 120_000;

    // A new reading above the condition value.
    expect((await service.post('/measurements', { sensor_id: sensor, value: 6 })).status).toBe(200);
    expect(await polled(id, query)).toMatchObject({ activate: false, reason: 'ok' });
    expect((await service.post('/measurements', { sensor_id: sensor, value: 5 })).status).toBe(200);
    expect(await claimedOnce(id, query)).toMatchObject({ activate: true, reason: 'ok' });
    await report(id);
    service.clock.now = NOW + 180_000;

    // The settings the answer carries.
    expect((await service.patch('/actuators', [{ actuator_id: id, activation_duration: 7, activation_period: 30 }])).status).toBe(200);
    expect(await claimedOnce(id, query)).toEqual({ activate: true, status: 'OK', reason: 'ok', duration: 7, period: 30 });

    // The pump ran: it waits for its period again.
    await report(id);
    expect(await polled(id, query)).toMatchObject({ activate: false, reason: 'waiting', duration: 7, period: 30 });
    service.clock.now = NOW + 210_000;

    // Its prototype paused, then resumed.
    expect((await service.post('/prototypes/0/pause', { for: 600 })).status).toBe(200);
    expect(await polled(id, query)).toMatchObject({
      activate: false,
      reason: 'paused',
      status: `Prototype paused until ${iso(NOW + 210_000 + 600_000)}`,
    });
    expect((await service.request('DELETE', '/prototypes/0/pause')).status).toBe(204);
    expect(await claimedOnce(id, query)).toMatchObject({ activate: true, reason: 'ok' });
    await report(id);
    service.clock.now = NOW + 240_000;

    // Disabled.
    expect((await service.patch('/actuators', [{ actuator_id: id, enabled: false }])).status).toBe(200);
    expect(await polled(id, query)).toMatchObject({ activate: false, reason: 'disabled' });

    // The newest reading deleted: the one before it decides.
    await service.patch('/actuators', [{ actuator_id: id, enabled: true }]);
    expect((await service.post('/measurements', { sensor_id: sensor, value: 6 })).status).toBe(200);
    expect(await polled(id, query)).toMatchObject({ activate: false, reason: 'ok' });
    const newest = (await service.get(`/measurements/${sensor}/last`)).body.measurement_id as number;
    expect((await service.request('DELETE', `/measurements/${newest}`)).status).toBe(204);
    expect(await claimedOnce(id, query)).toMatchObject({ activate: true, reason: 'ok' });

    // Deleted: 404, on either path.
    expect((await service.request('DELETE', `/actuators/${id}`)).status).toBe(204);
    expect((await service.get(`/actuators/${id}/state${query}`)).status).toBe(404);
  });
});

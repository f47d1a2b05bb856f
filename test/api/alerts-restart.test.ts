import { afterEach, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { scratchDatabase, storeKinds } from '../helpers/stores.js';
import { temperatureSensorBody } from '../helpers/bodies.js';

const SENSOR = temperatureSensorBody;

describe.each(storeKinds())('alerts across a restart (%s)', (kind) => {
  const services: TestService[] = [];
  afterEach(async () => {
    for (const s of services.splice(0)) await s.close();
  });

  it('what fell due while the service was stopped is evaluated at start: a sensor gone stale, an alert whose clear-after passed', async () => {
    const database = await scratchDatabase(kind);
    const env = { STALE_AFTER: 'PT1H', ALERT_CLEAR_AFTER: 'PT1M' };
    // Two hours ago by the real clock, which the restarted service reads at start.
    const then = Date.now() - 2 * 3600_000;
    const first = await startService(kind, { database, env });
    first.clock.now = then;
    const fresh = (await first.post('/sensors/', SENSOR)).body.sensor_id as number;
    const recovering = (await first.post('/sensors/', SENSOR)).body.sensor_id as number;
    const post = (sensor_id: number, value: number, at: number) =>
      first.post('/measurements', { sensor_id, value, timestamp: new Date(at).toISOString() });
    expect((await post(fresh, 25, then)).status).toBe(200);
    expect((await post(recovering, 35, then)).status).toBe(200);
    await first.app.alertsSettled();
    expect((await post(recovering, 25, then + 1000)).status).toBe(200);
    await first.app.alertsSettled();
    expect((await first.get(`/alerts?sensor_id=${recovering}`)).body.map((a: { kind: string }) => a.kind)).toEqual(['high']);
    await first.close();

    const second = await startService(kind, { database, env });
    services.push(second);
    await second.app.alertsSettled();
    const stale = (await second.get(`/alerts?sensor_id=${fresh}`)).body;
    expect(stale.map((a: { kind: string }) => a.kind)).toEqual(['stale']);
    const after = (await second.get(`/alerts?sensor_id=${recovering}&state=all`)).body;
    expect(after.map((a: { kind: string; state: string }) => [a.kind, a.state])).toEqual([
      ['stale', 'active'],
      ['high', 'cleared'],
    ]);
    await database.drop();
  });

  it('a de-escalation whose wait passed while the service was stopped happens at start', async () => {
    const database = await scratchDatabase(kind);
    const env = { STALE_AFTER: 'PT24H', ALERT_CLEAR_AFTER: 'PT1M' };
    const then = Date.now() - 2 * 3600_000;
    const first = await startService(kind, { database, env });
    const sensor_id = (await first.post('/sensors/', SENSOR)).body.sensor_id as number;
    const measure = async (value: number, at: number) => {
      first.clock.now = at;
      expect((await first.post('/measurements', { sensor_id, value, timestamp: new Date(at).toISOString() })).status).toBe(200);
      await first.app.alertsSettled();
    };
    await measure(45, then);
    await measure(35, then + 1000);
    expect((await first.get(`/alerts?sensor_id=${sensor_id}`)).body.map((a: { severity: string }) => a.severity)).toEqual(['critical']);
    await first.close();

    const second = await startService(kind, { database, env });
    services.push(second);
    await second.app.alertsSettled();
    const after = (await second.get(`/alerts?sensor_id=${sensor_id}&state=all`)).body;
    expect(after.map((a: { kind: string; state: string; severity: string }) => [a.kind, a.state, a.severity])).toEqual([
      ['high', 'active', 'warning'],
    ]);
    await database.drop();
  });
});

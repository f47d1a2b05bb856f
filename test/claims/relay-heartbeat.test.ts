import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basePumpBody, phSensorBody } from '../helpers/bodies.js';
import { databaseProxy } from '../helpers/db-proxy.js';
import { eventually } from '../helpers/eventually.js';
import { startService, type TestService } from '../helpers/service.js';
import { type ScratchDatabase, scratchDatabase } from '../helpers/stores.js';

/**
 * An instance whose link to the others (the PostgreSQL LISTEN connection) dies without a word
 * notices it within seconds (a heartbeat on that connection), claims no dose while it is cut off
 * (`store_unavailable`, `/healthz` dosing held) although its store still answers, and doses again
 * once it listens again and has read the state again. The listening connection carries a name.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('the relay heartbeat', () => {
  let database: ScratchDatabase;
  let service: TestService;
  let proxy: ReturnType<typeof databaseProxy>;
  beforeAll(async () => {
    database = await scratchDatabase('postgres');
    proxy = databaseProxy(new URL(database.url));
    await proxy.open();
    // Only the listening connection goes through the proxy: the store itself keeps answering.
    service = await startService('postgres', { database, env: { DATABASE_LISTEN_URL: proxy.via(database.url) } });
  });
  afterAll(async () => {
    await proxy?.cut();
    await service?.close();
  });

  it('names the listening connection for pg_stat_activity', async () => {
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      const name = new URL(database.url).pathname.slice(1);
      const { rows } = await admin.query('select count(*)::int as n from pg_stat_activity where datname = $1 and application_name = $2', [
        name,
        'sensorhub-relay',
      ]);
      expect(rows[0].n).toBe(1);
    } finally {
      await admin.end();
    }
  });

  it('holds dosing while the link is silently dead, and doses again once it is back', async () => {
    const at = Date.now();
    service.clock.now = at - 120_000;
    const sensor = (await service.post('/sensors/', phSensorBody)).body.sensor_id as number;
    const id = (await service.post('/actuators', basePumpBody(sensor))).body.actuator_id as number;
    service.clock.now = at;
    await service.post('/measurements', { sensor_id: sensor, value: 5.0 });
    expect((await service.get('/healthz')).body.dosing).toBe('ok');

    proxy.silence();
    await eventually(async () => (await service.get('/healthz')).body.dosing === 'held', 'the dead link to be noticed', 15_000);
    const held = await service.get(`/actuators/${id}/state`);
    expect(held.status).toBe(200);
    expect(held.body).toMatchObject({ activate: false, reason: 'store_unavailable' });
    expect((await service.get(`/actuators/${id}/activations`)).body).toEqual([]);

    proxy.speak();
    await eventually(async () => (await service.get('/healthz')).body.dosing === 'ok', 'the link to be back', 20_000);
    expect((await service.get(`/actuators/${id}/state`)).body).toMatchObject({ activate: true, reason: 'ok' });
  }, 60_000);
});

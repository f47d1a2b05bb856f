import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseProxy } from '../helpers/db-proxy.js';
import { eventually } from '../helpers/eventually.js';
import { startService, type TestService } from '../helpers/service.js';
import { type ScratchDatabase, scratchDatabase } from '../helpers/stores.js';

describe.runIf(process.env.TEST_DATABASE_URL)('when PostgreSQL goes away and comes back', () => {
  let database: ScratchDatabase;
  let service: TestService;
  let proxy: ReturnType<typeof databaseProxy>;
  beforeAll(async () => {
    database = await scratchDatabase('postgres');
    const url = new URL(database.url);
    proxy = databaseProxy(url);
    await proxy.open();
    const viaProxy = new URL(database.url);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    service = await startService('postgres', {
      database: { url: viaProxy.toString(), drop: async () => {} },
      env: { DATABASE_CONNECT_TIMEOUT_MS: '1000' },
    });
  });
  afterAll(async () => {
    await service?.close();
    await proxy?.cut();
    await database?.drop();
  });

  it('answers 503 with a clear detail while it is gone, and recovers by itself', async () => {
    expect((await service.get('/prototypes')).status).toBe(200);
    await proxy.cut();

    const down = await service.get('/prototypes');
    expect(down.status).toBe(503);
    expect(down.body).toEqual({ detail: 'Database unavailable, try again shortly.' });
    expect(down.headers.get('retry-after')).toBe('5');
    expect((await service.post('/measurements', { sensor_id: 1, value: 1 })).status).toBe(503);
    const health = await service.get('/healthz');
    expect(health.status).toBe(503);

    await proxy.open();
    expect((await service.get('/prototypes')).status).toBe(200);
    // Dosing stays held until the link to the other instances listens again (with its backoff).
    await eventually(async () => (await service.get('/healthz')).body.dosing === 'ok', 'the relay to listen again', 20_000);
    expect((await service.get('/healthz')).body).toEqual({ status: 'ok', picture: 'none', backup: null, dosing: 'ok' });
    expect((await service.post('/measurements', { sensor_id: 1, value: 2 })).status).toBe(200);
  });

  it('recovers when the server terminates its connections', async () => {
    expect((await service.get('/prototypes')).status).toBe(200);
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    const name = new URL(database.url).pathname.slice(1);
    await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
    await admin.end();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await service.get('/prototypes')).status);
    expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);
    expect(statuses.at(-1)).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseProxy } from '../helpers/db-proxy.js';
import { startService, type TestService } from '../helpers/service.js';
import { type ScratchDatabase, scratchDatabase } from '../helpers/stores.js';

/** The longest statement limit the configuration takes: a request on a silent database would wait a day. */
const DAY_MS = 24 * 3600_000;

describe.runIf(process.env.TEST_DATABASE_URL)(
  'when PostgreSQL stops answering (connections open, no replies)',
  { timeout: 120_000 },
  () => {
    let database: ScratchDatabase;
    let proxy: ReturnType<typeof databaseProxy>;
    /** Requests give up at the statement limit. */
    let service: TestService;
    /** Its statement limit is a day: whatever it answers while the database is silent, it answers by another limit. */
    let patient: TestService;
    const start = (statementTimeoutMs: number) =>
      startService('postgres', {
        database: { url: proxy.via(database.url), drop: async () => {} },
        env: { DATABASE_CONNECT_TIMEOUT_MS: '1000', DATABASE_STATEMENT_TIMEOUT_MS: String(statementTimeoutMs) },
      });
    beforeAll(async () => {
      database = await scratchDatabase('postgres');
      proxy = databaseProxy(new URL(database.url));
      await proxy.open();
      service = await start(5000);
      patient = await start(DAY_MS);
    });
    afterAll(async () => {
      // Cut first: a query the silence swallowed holds its connection until its limit, a day for one of them.
      await proxy?.cut();
      await Promise.all([service?.close(), patient?.close()]);
      await database?.drop();
    });

    const unavailable = { status: 'unavailable', detail: 'Database unavailable', picture: 'none', backup: null, dosing: 'held' };

    it('answers 503 at the statement limit, /healthz by its own shorter limit, and recovers', async () => {
      // Warm the pools and the polled-read paths, so requests meet connections that go silent mid-use.
      for (const instance of [service, patient]) {
        expect((await instance.post('/measurements', { sensor_id: 1, value: 1 })).status).toBe(200);
        expect((await instance.get('/measurements/1/last')).status).toBe(200);
        expect((await instance.get('/healthz')).status).toBe(200);
      }
      proxy.silence();

      const requests = Promise.all([
        service.post('/measurements', { sensor_id: 1, value: 2 }),
        service.post('/measurements', [{ sensor_id: 1, value: 3 }]),
        service.get('/prototypes'),
        service.get('/measurements/1/last'),
      ]);
      // Had /healthz waited for the statement limit, the patient one would answer tomorrow.
      const [health, patientHealth] = await Promise.all([service.get('/healthz'), patient.get('/healthz')]);
      expect([health.status, patientHealth.status]).toEqual([503, 503]);
      expect(health.body).toEqual(unavailable);
      expect(patientHealth.body).toEqual(unavailable);

      for (const result of await requests) {
        expect(result.status).toBe(503);
        expect(result.body).toEqual({ detail: 'Database unavailable, try again shortly.' });
      }

      proxy.speak();
      for (const instance of [service, patient]) {
        await expect.poll(async () => (await instance.get('/prototypes')).status, { timeout: 15_000, interval: 500 }).toBe(200);
        expect((await instance.get('/healthz')).status).toBe(200);
      }
      expect((await service.post('/measurements', { sensor_id: 1, value: 4 })).status).toBe(200);
    });
  },
);

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseProxy } from '../helpers/db-proxy.js';
import { startService, type TestService } from '../helpers/service.js';
import { type ScratchDatabase, scratchDatabase } from '../helpers/stores.js';

const STATEMENT_TIMEOUT_MS = 10_000;

describe.runIf(process.env.TEST_DATABASE_URL)(
  'when PostgreSQL stops answering (connections open, no replies)',
  { timeout: 120_000 },
  () => {
    let database: ScratchDatabase;
    let service: TestService;
    let proxy: ReturnType<typeof databaseProxy>;
    beforeAll(async () => {
      database = await scratchDatabase('postgres');
      proxy = databaseProxy(new URL(database.url));
      await proxy.open();
      service = await startService('postgres', {
        database: { url: proxy.via(database.url), drop: async () => {} },
        env: { DATABASE_CONNECT_TIMEOUT_MS: '1000', DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS) },
      });
    });
    afterAll(async () => {
      await service?.close();
      await proxy?.cut();
      await database?.drop();
    });

    const timed = async <T>(work: () => Promise<T>) => {
      const started = performance.now();
      const result = await work();
      return { result, ms: performance.now() - started };
    };

    it('answers 503 within the statement limit, /healthz within its own second, and recovers', async () => {
      // Warm the pool and the polled-read paths, so requests meet connections that go silent mid-use.
      expect((await service.post('/measurements', { sensor_id: 1, value: 1 })).status).toBe(200);
      expect((await service.get('/measurements/1/last')).status).toBe(200);
      expect((await service.get('/healthz')).status).toBe(200);
      proxy.silence();

      const health = timed(() => service.get('/healthz'));
      const requests = [
        timed(() => service.post('/measurements', { sensor_id: 1, value: 2 })),
        timed(() => service.post('/measurements', [{ sensor_id: 1, value: 3 }])),
        timed(() => service.get('/prototypes')),
        timed(() => service.get('/measurements/1/last')),
      ];
      const { result: healthReply, ms: healthMs } = await health;
      expect(healthReply.status).toBe(503);
      expect(healthReply.body).toEqual({ status: 'unavailable', detail: 'Database unavailable', picture: 'none' });
      // Its own one-second query limit, not the statement limit (10 s): a tenfold margin.
      expect(healthMs).toBeLessThan(STATEMENT_TIMEOUT_MS);

      for (const { result, ms } of await Promise.all(requests)) {
        expect(result.status).toBe(503);
        expect(result.body).toEqual({ detail: 'Database unavailable, try again shortly.' });
        // No longer than the statement limit plus the connection limit, and some slack for a busy machine.
        expect(ms).toBeLessThan(STATEMENT_TIMEOUT_MS + 1000 + 3000);
      }

      proxy.speak();
      let status = 0;
      for (let i = 0; i < 30 && status !== 200; i++) {
        status = (await service.get('/prototypes')).status;
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 500));
      }
      expect(status).toBe(200);
      expect((await service.post('/measurements', { sensor_id: 1, value: 4 })).status).toBe(200);
    });
  },
);

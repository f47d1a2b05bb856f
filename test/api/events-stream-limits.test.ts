import { get, type IncomingMessage } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tokenSecret, tokenService } from '../../src/auth/tokens.js';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';

/** An answer to GET /events: a stream held open (200), or a refusal read whole. */
interface Attempt {
  status: number;
  headers: IncomingMessage['headers'];
  /** The body of a refusal (JSON). */
  body?: { detail: string };
  close(): void;
}

/** A stream request on a connection of its own (node:http, no pool), from `localAddress` when given. */
function attempt(service: TestService, options: { localAddress?: string; token?: string } = {}): Promise<Attempt> {
  const { port } = new URL(service.url);
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  return new Promise((resolve, reject) => {
    const request = get(
      { host: '127.0.0.1', port: Number(port), path: '/events?types=alert', headers, agent: false, localAddress: options.localAddress },
      (response) => {
        const close = () => request.destroy();
        const status = response.statusCode ?? 0;
        if (status === 200) {
          response.resume();
          resolve({ status, headers: response.headers, close });
          return;
        }
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status, headers: response.headers, body: JSON.parse(text), close }));
      },
    );
    request.once('error', reject);
  });
}

const ingest = (service: TestService) => service.post('/measurements', { sensor_id: 1, value: 6.5 });

describe.each(storeKinds())('bounds on open event streams (%s)', { timeout: 120_000 }, (kind) => {
  const held: Attempt[] = [];
  afterEach(() => {
    for (const stream of held.splice(0)) stream.close();
  });

  describe('with the default bounds', () => {
    let service: TestService;
    beforeAll(async () => {
      service = await startService(kind);
    });
    afterAll(() => service?.close());

    it('refuses one client past 32 streams with 503 and Retry-After, while /healthz and ingest keep answering', async () => {
      const answers: Attempt[] = [];
      // 600 in waves of 100: each wave answered while the API is asked too.
      for (let wave = 0; wave < 6; wave++) {
        const [streams, health, stored] = await Promise.all([
          Promise.all(Array.from({ length: 100 }, () => attempt(service))),
          service.get('/healthz'),
          ingest(service),
        ]);
        answers.push(...streams);
        held.push(...streams);
        expect(health.status).toBe(200);
        expect(stored.status).toBe(200);
      }
      const open = answers.filter((a) => a.status === 200);
      const refused = answers.filter((a) => a.status !== 200);
      expect(open).toHaveLength(32);
      expect(refused).toHaveLength(568);
      for (const answer of refused) {
        expect(answer.status).toBe(503);
        expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
        expect(answer.body?.detail).toMatch(/for this client \(32 at most\)/);
      }
      expect(service.app.liveEvents.streams.count).toBe(32);
      expect((await service.get('/healthz')).status).toBe(200);
      expect((await ingest(service)).status).toBe(200);

      const metrics = (await service.get('/metrics')).text;
      expect(metrics).toMatch(/^sensorhub_event_streams_open 32$/m);
      expect(metrics).toMatch(/^sensorhub_event_streams_max 256$/m);
      expect(metrics).toMatch(/^sensorhub_event_streams_refused_total 568$/m);

      // A stream that ends gives its place back.
      open[0].close();
      await expect.poll(() => service.app.liveEvents.streams.count).toBe(31);
      const again = await attempt(service);
      held.push(again);
      expect(again.status).toBe(200);
      expect((await attempt(service)).status).toBe(503);
    });
  });

  describe('with EVENTS_MAX_STREAMS=5 and EVENTS_MAX_STREAMS_PER_CLIENT=3', () => {
    let service: TestService;
    beforeAll(async () => {
      service = await startService(kind, { env: { EVENTS_MAX_STREAMS: '5', EVENTS_MAX_STREAMS_PER_CLIENT: '3' } });
    });
    afterAll(() => service?.close());

    it('counts streams per remote address, and refuses any past 5 in all until one ends', async () => {
      const from = async (localAddress: string) => {
        const answer = await attempt(service, { localAddress });
        held.push(answer);
        return answer;
      };
      const first = [await from('127.0.0.1'), await from('127.0.0.1'), await from('127.0.0.1')];
      expect(first.map((a) => a.status)).toEqual([200, 200, 200]);
      const fourth = await from('127.0.0.1');
      expect(fourth.status).toBe(503);
      expect(fourth.body?.detail).toMatch(/for this client \(3 at most\)/);

      expect((await from('127.0.0.2')).status).toBe(200);
      expect((await from('127.0.0.2')).status).toBe(200);
      for (const address of ['127.0.0.2', '127.0.0.3']) {
        const beyond = await from(address);
        expect(beyond.status).toBe(503);
        expect(beyond.headers['retry-after']).toBeDefined();
        expect(beyond.body?.detail).toMatch(/^Too many event streams open \(5 at most\)/);
      }
      expect((await service.get('/healthz')).status).toBe(200);

      first[0].close();
      await expect.poll(() => service.app.liveEvents.streams.count).toBe(4);
      expect((await from('127.0.0.3')).status).toBe(200);
      expect((await from('127.0.0.3')).status).toBe(503);
    });
  });

  describe('with AUTH_MODE=enforced, EVENTS_MAX_STREAMS=5 and EVENTS_MAX_STREAMS_PER_CLIENT=3', () => {
    let service: TestService;
    beforeAll(async () => {
      service = await startService(kind, { env: { AUTH_MODE: 'enforced', EVENTS_MAX_STREAMS: '5', EVENTS_MAX_STREAMS_PER_CLIENT: '3' } });
    });
    afterAll(() => service?.close());

    it('counts streams per token: two tokens of one user, from one address, each get their own places', async () => {
      const user = await service.store.users.create({
        username: 'reader',
        password_hash: 'unused',
        permissions: 2,
        created_at: Date.now(),
      });
      const tokens = tokenService(await tokenSecret(undefined, service.store.settings), 3600_000);
      const [a, b, c] = await Promise.all([1, 2, 3].map(() => tokens.issue(user!, Date.now())));
      expect(new Set([a, b, c]).size).toBe(3);
      const as = async (token: string) => {
        const answer = await attempt(service, { token });
        held.push(answer);
        return answer;
      };
      for (let i = 0; i < 3; i++) expect((await as(a)).status).toBe(200);
      expect((await as(a)).status).toBe(503);
      expect((await as(b)).status).toBe(200);
      const bSecond = await as(b);
      expect(bSecond.status).toBe(200);
      const full = await as(c);
      expect(full.status).toBe(503);
      expect(full.body?.detail).toMatch(/^Too many event streams open \(5 at most\)/);

      bSecond.close();
      await expect.poll(() => service.app.liveEvents.streams.count).toBe(4);
      expect((await as(c)).status).toBe(200);
    });
  });
});

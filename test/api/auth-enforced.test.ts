import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/index.js';
import { openStore } from '../../src/store/index.js';
import { startService, type TestService } from '../helpers/service.js';
import { scratchDatabase, storeKinds, dbOf } from '../helpers/stores.js';
import { tokenFor } from '../helpers/tokens.js';

const form = (fields: Record<string, string>) => ({
  raw: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());

const measurementCount = async (service: TestService) =>
  Number((await sql<{ n: number }>`select count(*) as n from measurements`.execute(dbOf(service.store))).rows[0].n);

describe.each(storeKinds())('AUTH_MODE=enforced (%s)', (kind) => {
  let service: TestService;
  let admin: string;
  let editor: string;
  let reader: string;
  let device: string;
  beforeAll(async () => {
    service = await startService(kind, { env: { AUTH_MODE: 'enforced', TOKEN_TTL_MINUTES: '5' } });
  });
  afterAll(() => service?.close());

  describe('the first user', () => {
    it('is refused everything else before it exists', async () => {
      expect((await service.get('/prototypes')).status).toBe(401);
    });

    it('needs no token and becomes an administrator with every permission', async () => {
      const res = await service.request('POST', '/users/new/', form({ username: 'root', password: 'first admin' }));
      expect(res.status).toBe(200);
      admin = res.body.access_token;
      expect(claimsOf(admin)).toMatchObject({ sub: 'root', permissions: 31 });
    });

    it('closes the door behind it: the next user needs an admin token', async () => {
      const before = (await service.store.users.list()).length;
      const anonymous = await service.request('POST', '/users/new/', form({ username: 'eve', password: 'sneaky one' }));
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
      const created = await service.request('POST', '/users/new/', { ...form({ username: 'ed', password: 'editor pass' }), token: admin });
      expect(created.status).toBe(200);
      editor = created.body.access_token;
      expect(claimsOf(editor).permissions).toBe(6);
      const refused = await service.request('POST', '/users/new/', { ...form({ username: 'eve', password: 'sneaky one' }), token: editor });
      expect(refused.status).toBe(403);
      expect(await service.store.users.get('eve')).toBeUndefined();
      expect((await service.store.users.list()).length).toBe(before + 1);
      reader = await tokenFor(service.store, 'viewer', 2);
      device = await tokenFor(service.store, 'pi', 1);
    });
  });

  // Representative routes of each kind: what they need, and a request that passes the guard.
  const routes: [string, string, string, () => unknown][] = [
    ['read', 'GET', '/prototypes', () => undefined],
    ['read', 'GET', '/measurements/1', () => undefined],
    ['read', 'GET', '/measurements/export', () => undefined],
    ['read', 'GET', '/actuators/1/state', () => undefined],
    ['read', 'GET', '/sensors/0', () => undefined],
    ['post_measurements', 'POST', '/measurements', () => ({ sensor_id: 1, value: 1.5 })],
    ['modify', 'POST', '/prototypes', () => ({ prototype_id: 50 + Math.floor(Math.random() * 1e6), prototype_name: 'p' })],
    [
      'modify',
      'POST',
      '/sensors/',
      () => ({
        sensor_type: 'ph',
        prototype_id: 0,
        sensor_unit: 'pH',
        threshold_critically_low: 4,
        threshold_low: 5,
        threshold_high: 7,
        threshold_critically_high: 8,
      }),
    ],
    ['modify', 'PATCH', '/actuators/1/last_activated', () => undefined],
    ['modify', 'POST', '/Measurement/Random', () => ({ nb_measurements: 3, replace: false })],
    ['admin', 'POST', '/users/new/', () => ({ username: `u${Math.random().toString(36).slice(2)}`, password: 'long enough' })],
  ];
  const holders = () => ({ admin, editor, reader, device });
  const granted: Record<string, string[]> = {
    read: ['admin', 'editor', 'reader'],
    post_measurements: ['admin', 'device'],
    modify: ['admin', 'editor'],
    admin: ['admin'],
  };

  it.each(routes)('%s: %s %s answers 401 without a valid token', async (_access, method, path, body) => {
    const prototypes = (await service.get('/prototypes', { token: admin })).body;
    const measurements = await measurementCount(service);
    for (const token of [undefined, 'garbage', `${admin}x`]) {
      const res = await service.request(method, path, { json: body(), token } as never);
      expect(res.status, String(token)).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    }
    expect((await service.get('/prototypes', { token: admin })).body).toEqual(prototypes);
    expect(await measurementCount(service)).toBe(measurements);
  });

  it.each(routes)('%s: %s %s answers 403 to a token without the permission, and lets the others in', async (access, method, path, body) => {
    for (const [holder, token] of Object.entries(holders())) {
      const measurements = await measurementCount(service);
      const prototypes = (await service.get('/prototypes', { token: admin })).body;
      const res = await service.request(method, path, { json: body(), token } as never);
      if (granted[access].includes(holder)) {
        expect(res.status, `${holder}: ${res.text}`).toBeLessThan(300);
      } else {
        expect(res.status, holder).toBe(403);
        expect(res.body).toEqual({ detail: 'Not enough permissions' });
        expect(await measurementCount(service)).toBe(measurements);
        expect((await service.get('/prototypes', { token: admin })).body).toEqual(prototypes);
      }
    }
  });

  it('checks HEAD like the GET it mirrors', async () => {
    expect((await service.request('HEAD', '/prototypes')).status).toBe(401);
    expect((await service.request('HEAD', '/prototypes', { token: device })).status).toBe(403);
    expect((await service.request('HEAD', '/prototypes', { token: reader })).status).toBe(200);
  });

  it('keeps /token, /healthz, the documentation, CORS preflight and unknown routes open', async () => {
    expect((await service.request('POST', '/token', form({ username: 'ed', password: 'editor pass' }))).status).toBe(200);
    expect((await service.get('/healthz')).status).toBe(200);
    expect((await service.get('/openapi.json')).status).toBe(200);
    expect((await fetch(`${service.url}/docs`)).status).toBe(200);
    expect((await fetch(`${service.url}/docs/static/index.html`)).status).toBe(200);
    const preflight = await fetch(`${service.url}/prototypes`, {
      method: 'OPTIONS',
      headers: { origin: 'http://dash.local', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/authorization/i);
    expect((await service.get('/no/such/route')).status).toBe(404);
  });

  it('refuses with CORS headers, so a dashboard on another origin can read the 401', async () => {
    const res = await fetch(`${service.url}/prototypes`, { headers: { origin: 'http://dash.local' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('leaves every documented operation closed except the public ones', async () => {
    const doc = (await service.get('/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const open = new Set([
      'POST /token',
      'GET /healthz',
      'POST /users/logout/',
      'GET /users/items/',
      // The acknowledge links: the signed link is the permission.
      'GET /notifications/ack/{token}',
      'POST /notifications/ack/{token}',
    ]);
    const seen: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const method of Object.keys(operations)) {
        const operation = `${method.toUpperCase()} ${path}`;
        seen.push(operation);
        const res = await service.request(method.toUpperCase(), path.replace(/\{[^}]+\}/g, '1'), {
          json: method === 'get' ? undefined : {},
        } as never);
        if (open.has(operation)) expect(res.status, operation).not.toBe(403);
        else expect(res.status, operation).toBe(401);
      }
    }
    expect(seen.length).toBeGreaterThan(15);
  });

  it('logs out and echoes tokens in enforced mode too, for any valid token', async () => {
    const deviceItems = await service.get('/users/items/', { token: device });
    expect(deviceItems.status).toBe(200);
    expect(deviceItems.body).toEqual({ token: device });
    expect((await service.get('/users/items/')).status).toBe(401);
    expect((await service.request('POST', '/users/logout/')).status).toBe(401);

    const mine = (await service.request('POST', '/token', form({ username: 'ed', password: 'editor pass' }))).body.access_token;
    expect((await service.post('/users/logout/', undefined, { token: mine })).body).toEqual({ message: 'Logged out' });
    expect((await service.get('/prototypes', { token: mine })).status).toBe(401);
    expect((await service.get('/prototypes', { token: editor })).status).toBe(401);
    const fresh = (await service.request('POST', '/token', form({ username: 'ed', password: 'editor pass' }))).body.access_token;
    expect((await service.get('/prototypes', { token: fresh })).status).toBe(200);
    editor = fresh;
  });

  it('gives tokens the configured lifetime', async () => {
    const token = (await service.request('POST', '/token', form({ username: 'ed', password: 'editor pass' }))).body.access_token;
    const { iat, exp } = claimsOf(token);
    expect(exp - iat).toBe(5 * 60);
    service.clock.now = exp * 1000 - 1000;
    expect((await service.get('/prototypes', { token })).status).toBe(200);
    service.clock.now = exp * 1000;
    expect((await service.get('/prototypes', { token })).status).toBe(401);
    service.clock.now = undefined;
  });

  it('refuses the token of a removed user', async () => {
    const token = await tokenFor(service.store, 'temp', 15);
    expect((await service.get('/prototypes', { token })).status).toBe(200);
    await service.store.users.remove('temp');
    expect((await service.get('/prototypes', { token })).status).toBe(401);
  });

  it('narrows a token to the permissions its user still has, and never widens it', async () => {
    await service.store.users.setPermissions('ed', 2);
    expect((await service.post('/prototypes', { prototype_id: 4, prototype_name: 'x' }, { token: editor })).status).toBe(403);
    expect((await service.get('/prototypes', { token: editor })).status).toBe(200);
    await service.store.users.setPermissions('ed', 15);
    expect(
      (await service.request('POST', '/users/new/', { ...form({ username: 'zed', password: 'long enough' }), token: editor })).status,
    ).toBe(403);
  });
});

describe.each(storeKinds())('AUTH_MODE=enforced, first users created at the same moment (%s)', (kind) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService(kind, { env: { AUTH_MODE: 'enforced' } });
  });
  afterAll(() => service?.close());

  it('makes exactly one of them the administrator and refuses the others', async () => {
    const attempts = await Promise.all(
      Array.from({ length: 5 }, (_, i) => service.request('POST', '/users/new/', form({ username: `first${i}`, password: 'long enough' }))),
    );
    const statuses = attempts.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 401, 401, 401, 401]);
    const users = await service.store.users.list();
    expect(users).toHaveLength(1);
    expect(users[0].permissions).toBe(31);
  });
});

describe.each(storeKinds())('a route that declares no access (%s)', (kind) => {
  it('needs modify in enforced mode (fail closed), and is open in open mode', async () => {
    for (const mode of ['enforced', 'open']) {
      const database = await scratchDatabase(kind);
      const config = loadConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'silent', AUTH_MODE: mode });
      const store = await openStore(config.databaseUrl);
      const app = await buildApp(config, store, { logger: false });
      app.get('/undeclared', async () => ({ ok: true }));
      try {
        await app.listen({ port: 0, host: '127.0.0.1' });
        const address = app.server.address();
        const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/undeclared`;
        const get = async (token?: string) => (await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} })).status;
        if (mode === 'open') {
          expect(await get()).toBe(200);
          continue;
        }
        expect(await get()).toBe(401);
        expect(await get(await tokenFor(store, 'reader', 2))).toBe(403);
        expect(await get(await tokenFor(store, 'device', 1))).toBe(403);
        expect(await get(await tokenFor(store, 'editor', 4))).toBe(200);
      } finally {
        await app.close();
        await store.close();
        await database.drop();
      }
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';

const form = (fields: Record<string, string>) => ({
  raw: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});

describe.each(storeKinds())('AUTH_MODE=enforced (%s)', (kind) => {
  let service: TestService;
  let admin: string;
  let editor: string;
  let device: string;
  beforeAll(async () => {
    service = await startService(kind, { env: { AUTH_MODE: 'enforced' } });
    // The first user needs no token and becomes an administrator.
    admin = (await service.request('POST', '/users/new/', form({ username: 'root', password: 'first admin' }))).body.access_token;
    editor = (await service.request('POST', '/users/new/', { ...form({ username: 'ed', password: 'editor pass' }), token: admin })).body.access_token;
    await service.store.users.create({ username: 'pi', password_hash: 'x', permissions: 1, created_at: Date.now() });
    device = await issueFor('pi', 1);
  });
  afterAll(() => service?.close());

  async function issueFor(username: string, permissions: number): Promise<string> {
    const { tokenSecret, tokenService } = await import('../../src/auth/tokens.js');
    const tokens = tokenService(await tokenSecret(undefined, service.store.settings), 3600_000);
    return tokens.issue(username, permissions, Date.now());
  }

  it('needs a token to read: 401 without, 200 with read', async () => {
    const res = await service.get('/prototypes');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect((await service.get('/prototypes', { token: 'garbage' })).status).toBe(401);
    expect((await service.get('/prototypes', { token: editor })).status).toBe(200);
    expect((await service.get('/measurements/1', { token: editor })).status).toBe(200);
    expect((await service.get('/actuators/1/state', { token: editor })).status).toBe(200);
  });

  it('lets a device post measurements and nothing else', async () => {
    expect((await service.post('/measurements', { sensor_id: 1, value: 1.1 }, { token: device })).status).toBe(201);
    expect((await service.post('/measurements', { sensor_id: 1, value: 1.1 })).status).toBe(401);
    expect((await service.get('/measurements/1', { token: device })).status).toBe(403);
    const refused = await service.post('/prototypes', { prototype_id: 3, prototype_name: 'x' }, { token: device });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: 'Not enough permissions' });
    expect((await service.get('/prototypes', { token: editor })).body).toHaveLength(1);
  });

  it('needs modify for every other write', async () => {
    expect((await service.post('/prototypes', { prototype_id: 3, prototype_name: 'x' }, { token: editor })).status).toBe(201);
    expect((await service.post('/measurements', { sensor_id: 1, value: 1 }, { token: editor })).status).toBe(403);
    expect((await service.request('PATCH', '/actuators/1/last_activated', { token: device })).status).toBe(403);
    expect((await service.request('PATCH', '/actuators/1/last_activated', { token: editor })).status).toBe(200);
    expect((await service.post('/Measurement/Random', { nb_measurements: 3 }, { token: device })).status).toBe(403);
  });

  it('needs admin to create users once one exists', async () => {
    expect((await service.request('POST', '/users/new/', form({ username: 'eve', password: 'sneaky one' }))).status).toBe(401);
    expect((await service.request('POST', '/users/new/', { ...form({ username: 'eve', password: 'sneaky one' }), token: editor })).status).toBe(403);
    expect(await service.store.users.get('eve')).toBeUndefined();
  });

  it('keeps /token, /healthz, the documentation and CORS preflight open', async () => {
    expect((await service.request('POST', '/token', form({ username: 'ed', password: 'editor pass' }))).status).toBe(200);
    expect((await service.get('/healthz')).status).toBe(200);
    expect((await service.get('/openapi.json')).status).toBe(200);
    expect((await fetch(`${service.url}/docs`)).status).toBe(200);
    const preflight = await fetch(`${service.url}/prototypes`, {
      method: 'OPTIONS',
      headers: { origin: 'http://dash.local', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
    });
    expect(preflight.status).toBe(204);
    expect((await service.get('/no/such/route')).status).toBe(404);
  });

  it('narrows a token to the permissions its user still has', async () => {
    await service.store.users.setPermissions('ed', 2);
    expect((await service.post('/prototypes', { prototype_id: 4, prototype_name: 'x' }, { token: editor })).status).toBe(403);
    expect((await service.get('/prototypes', { token: editor })).status).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';

describe.each(storeKinds())('HTTP conventions (%s)', (kind) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService(kind, { env: { BODY_LIMIT_BYTES: '2048' } });
  });
  afterAll(() => service?.close());

  const prototypes = async () => (await service.get('/prototypes')).body;

  it('serves a path with and without its trailing slash, without redirecting', async () => {
    for (const path of ['/prototypes', '/prototypes/', '/prototypes/0', '/prototypes/0/', '/sensors/0', '/sensors/0/']) {
      const res = await fetch(service.url + path, { redirect: 'manual' });
      expect(res.status, path).toBe(200);
    }
    expect((await service.post('/prototypes/', { prototype_id: 41, prototype_name: 'slash' })).status).toBe(200);
    expect((await service.patch('/sensors/', [])).status).toBe(200);
  });

  it('answers 400 for malformed JSON and writes nothing', async () => {
    const before = await prototypes();
    const res = await service.request('POST', '/prototypes', {
      raw: '{"prototype_id": 9,',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/JSON/);
    expect(await prototypes()).toEqual(before);
  });

  it('answers 415 for a body that is not JSON and writes nothing', async () => {
    const before = await prototypes();
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const res = await service.request('POST', '/prototypes', {
        raw: 'prototype_id=9&prototype_name=x',
        headers: { 'content-type': type },
      });
      expect(res.status, type).toBe(415);
      expect(typeof res.body.detail).toBe('string');
    }
    expect(await prototypes()).toEqual(before);
  });

  it('answers 413 for a body over BODY_LIMIT_BYTES and writes nothing', async () => {
    const before = await prototypes();
    const res = await service.post('/prototypes', { prototype_id: 10, prototype_name: 'x'.repeat(190), padding: 'p'.repeat(4000) });
    expect(res.status).toBe(413);
    expect(typeof res.body.detail).toBe('string');
    expect(await prototypes()).toEqual(before);
  });

  it('answers 404 with a detail for an unknown route', async () => {
    const res = await service.get('/no/such/route');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: 'Not Found' });
  });

  it('answers CORS preflight for every route, allowing any origin by default', async () => {
    for (const [path, method] of [
      ['/prototypes', 'POST'],
      ['/sensors', 'PATCH'],
      ['/sensors/0', 'GET'],
      ['/anything/else', 'PUT'],
    ]) {
      const res = await fetch(service.url + path, {
        method: 'OPTIONS',
        headers: { origin: 'http://dashboard.local:4200', 'access-control-request-method': method },
      });
      expect(res.status, path).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-methods')).toContain(method);
    }
    const res = await fetch(`${service.url}/prototypes`, { headers: { origin: 'http://dashboard.local:4200' } });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('reports health, documentation and the OpenAPI document', async () => {
    expect(await service.get('/healthz')).toMatchObject({ status: 200, body: { status: 'ok' } });
    const docs = await fetch(`${service.url}/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('swagger');
    const openapi = await service.get('/openapi.json');
    expect(openapi.status).toBe(200);
    expect(openapi.body.openapi).toMatch(/^3\./);
    expect(openapi.body.paths['/prototypes'].post).toMatchObject({ summary: 'Post Prototype', tags: ['Prototypes'] });
  });
});

describe('CORS with configured origins', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService('sqlite', { env: { CORS_ORIGINS: 'http://dashboard.local:4200,https://grow.example' } });
  });
  afterAll(() => service?.close());

  it('allows the listed origins and no others', async () => {
    const allowed = await fetch(`${service.url}/prototypes`, { headers: { origin: 'https://grow.example' } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://grow.example');
    const refused = await fetch(`${service.url}/prototypes`, { headers: { origin: 'https://evil.example' } });
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${service.url}/sensors`, {
      method: 'OPTIONS',
      headers: { origin: 'http://dashboard.local:4200', 'access-control-request-method': 'PATCH' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://dashboard.local:4200');
  });
});

describe('when the store stops answering', () => {
  it('answers 503 on /healthz and a 500 that leaks nothing on other routes', async () => {
    const service = await startService('sqlite');
    await service.store.close();
    const health = await service.get('/healthz');
    expect(health.status).toBe(503);
    const res = await service.get('/prototypes');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ detail: 'Internal Server Error' });
    await service.app.close();
    await service.database.drop();
  });
});

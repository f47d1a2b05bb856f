import { sql } from 'kysely';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { argon2id } from '../../src/auth/passwords.js';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds, dbOf } from '../helpers/stores.js';

const form = (fields: Record<string, string>) => ({
  raw: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});
const multipart = (fields: Record<string, string>) => {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  return body;
};

describe.each(storeKinds())('users and tokens, open mode (%s)', (kind) => {
  let service: TestService;
  const T0 = Date.now();
  beforeAll(async () => {
    service = await startService(kind);
    service.clock.now = T0;
  });
  afterAll(() => service?.close());

  const login = (fields: Record<string, string>) => service.request('POST', '/token', form(fields));
  const usersRows = async () =>
    (await sql<Record<string, unknown>>`select * from users order by username`.execute(dbOf(service.store))).rows;

  it('creates a user from a form and answers 200 with a bearer token', async () => {
    const res = await service.request('POST', '/users/new/', form({ username: 'ana', password: 'correct horse' }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ access_token: expect.any(String), token_type: 'bearer' });
    const items = await service.get('/users/items/', { token: res.body.access_token });
    expect(items.body).toEqual({ token: res.body.access_token });
  });

  it('keeps no clear-text password, only an argon2id hash', async () => {
    const rows = await usersRows();
    expect(JSON.stringify(rows)).not.toContain('correct horse');
    expect(rows[0].password_hash).toMatch(/^\$argon2id\$/);
  });

  it('never makes an administrator in open mode: the first user and later ones get read|modify', async () => {
    const claims = async (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
    const first = await login({ username: 'ana', password: 'correct horse' });
    expect((await claims(first.body.access_token)).permissions).toBe(6);
    expect((await service.store.users.get('ana'))?.permissions).toBe(6);
    const second = await service.request('POST', '/users/new', form({ username: 'bo', password: 'battery staple' }));
    const payload = await claims(second.body.access_token);
    expect(payload).toMatchObject({ sub: 'bo', permissions: 6, jti: expect.any(String) });
    expect(payload.exp - payload.iat).toBe(60 * 60);
  });

  it('logs in with a form, multipart or JSON body, ignoring the other OAuth2 fields', async () => {
    const viaForm = await login({ username: 'ana', password: 'correct horse', grant_type: 'password', scope: '', client_id: 'x' });
    expect(viaForm.status).toBe(200);
    const viaMultipart = await fetch(`${service.url}/token`, {
      method: 'POST',
      body: multipart({ username: 'ana', password: 'correct horse' }),
    });
    expect(viaMultipart.status).toBe(200);
    const viaJson = await service.post('/token', { username: 'ana', password: 'correct horse' });
    expect(viaJson.status).toBe(200);
    expect(viaJson.body.token_type).toBe('bearer');
  });

  it('answers 401 with WWW-Authenticate for a wrong password or an unknown user', async () => {
    for (const fields of [
      { username: 'ana', password: 'wrong one' },
      { username: 'nobody', password: 'whatever1' },
    ]) {
      const res = await login(fields);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: 'Incorrect username or password' });
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    }
  });

  it('checks an unknown user against a hash of the same cost as a wrong password, so both take as long', async () => {
    service.clock.now = T0 + 3600_000;
    // The real argon2, watched: which hashes the logins check passwords against.
    const verify = vi.spyOn(argon2id, 'verify');
    expect((await login({ username: 'bo', password: 'nope-xyz' })).status).toBe(401);
    expect((await login({ username: 'ghost', password: 'nope-xyz' })).status).toBe(401);
    expect(verify).toHaveBeenCalledTimes(2);
    const [[wrongHash], [unknownHash]] = verify.mock.calls as [string, string][];
    expect(unknownHash).not.toBe(wrongHash);
    // The same algorithm, memory, passes and parallelism: `$argon2id$v=19$m=…,t=…,p=…$salt$hash`.
    const cost = (hash: string) => hash.split('$').slice(1, 4).join('$');
    expect(cost(unknownHash)).toMatch(/^argon2id\$v=19\$m=\d+,t=\d+,p=\d+$/);
    expect(cost(unknownHash)).toBe(cost(wrongHash));
    verify.mockRestore();
    service.clock.now = T0;
  });

  it.each([
    ['a short password', { username: 'cy', password: 'short' }, ['body', 'password']],
    ['a missing password', { username: 'cy' }, ['body', 'password']],
    ['a missing username', { password: 'long enough' }, ['body', 'username']],
    ['a username over 64 characters', { username: 'u'.repeat(65), password: 'long enough' }, ['body', 'username']],
  ])('refuses %s with 422 and creates nobody', async (_name, fields, loc) => {
    const before = await usersRows();
    const res = await service.request('POST', '/users/new/', form(fields as Record<string, string>));
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc })]));
    expect(await usersRows()).toEqual(before);
  });

  it('answers 409 for a taken username and keeps the original password', async () => {
    const res = await service.request('POST', '/users/new/', form({ username: 'ana', password: 'another password' }));
    expect(res.status).toBe(409);
    expect((await login({ username: 'ana', password: 'correct horse' })).status).toBe(200);
  });

  it('logout revokes every token issued before it, not those issued after', async () => {
    service.clock.now = T0 + 10_000;
    const a = (await login({ username: 'bo', password: 'battery staple' })).body.access_token;
    service.clock.now = T0 + 10_500;
    const b = (await login({ username: 'bo', password: 'battery staple' })).body.access_token;
    service.clock.now = T0 + 11_000;
    const out = await service.request('POST', '/users/logout/', { token: b });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ message: 'Logged out' });
    expect((await service.get('/users/items/', { token: a })).status).toBe(401);
    expect((await service.get('/users/items/', { token: b })).status).toBe(401);
    service.clock.now = T0 + 11_001;
    const c = (await login({ username: 'bo', password: 'battery staple' })).body.access_token;
    expect((await service.get('/users/items/', { token: c })).status).toBe(200);
    service.clock.now = T0;
  });

  it('refuses forged, expired, malformed and missing tokens with 401', async () => {
    const good = (await login({ username: 'ana', password: 'correct horse' })).body.access_token;
    const forged = await new SignJWT({ permissions: 15, uid: 1, gen: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('ana')
      .setIssuedAt()
      .setExpirationTime('1h')
      .setJti('x')
      .sign(new TextEncoder().encode('not-the-secret-not-the-secret-not-the-secret'));
    const [h, , s] = good.split('.');
    const tampered = `${h}.${Buffer.from(JSON.stringify({ sub: 'ana', uid: 1, gen: 0, permissions: 15, exp: 9e9 })).toString('base64url')}.${s}`;
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${good.split('.')[1]}.`;
    // Signed with the right secret but lacking the claims a token of ours has.
    const secret = new TextEncoder().encode(await service.store.settings.get('token_secret'));
    const partial = await new SignJWT({ permissions: 15 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('ana')
      .setExpirationTime('1h')
      .sign(secret);
    const otherAlgorithm = await new SignJWT({ permissions: 15, uid: 1, gen: 0 })
      .setProtectedHeader({ alg: 'HS512' })
      .setSubject('ana')
      .setIssuedAt()
      .setExpirationTime('1h')
      .setJti('x')
      .sign(new Uint8Array(Buffer.from((await service.store.settings.get('token_secret')) as string)));
    for (const token of [forged, tampered, unsigned, partial, otherAlgorithm, 'not.a.jwt', 'garbage', good.slice(0, -2)]) {
      const res = await service.get('/users/items/', { token });
      expect(res.status, token).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    }
    expect((await service.get('/users/items/')).status).toBe(401);
    expect((await service.request('POST', '/users/logout/')).status).toBe(401);
    expect((await service.get('/users/items/', { headers: { authorization: 'Basic YTpi' } })).status).toBe(401);
    service.clock.now = T0 + 61 * 60_000;
    expect((await service.get('/users/items/', { token: good })).status).toBe(401);
    service.clock.now = T0;
  });

  it('logout is exact within one millisecond: the token issued right after it works', async () => {
    service.clock.now = T0 + 20_000;
    const before = (await login({ username: 'bo', password: 'battery staple' })).body.access_token;
    expect((await service.request('POST', '/users/logout', { token: before })).status).toBe(200);
    const after = (await login({ username: 'bo', password: 'battery staple' })).body.access_token;
    expect((await service.get('/users/items/', { token: before })).status).toBe(401);
    expect((await service.get('/users/items/', { token: after })).status).toBe(200);
    expect((await service.request('POST', '/users/logout/', { token: before })).status).toBe(401);
    // Another user's tokens are untouched.
    const ana = (await login({ username: 'ana', password: 'correct horse' })).body.access_token;
    expect((await service.request('POST', '/users/logout/', { token: after })).status).toBe(200);
    expect((await service.get('/users/items/', { token: ana })).status).toBe(200);
    service.clock.now = T0;
  });

  it('refuses a token of a removed user, also once a new user takes the same name', async () => {
    await service.request('POST', '/users/new/', form({ username: 'gone', password: 'soon gone' }));
    const token = (await login({ username: 'gone', password: 'soon gone' })).body.access_token;
    await service.store.users.remove('gone');
    expect((await service.get('/users/items/', { token })).status).toBe(401);
    expect((await service.request('POST', '/users/new/', form({ username: 'gone', password: 'someone else' }))).status).toBe(200);
    expect((await service.get('/users/items/', { token })).status).toBe(401);
  });

  it('ignores a file part in a multipart login form', async () => {
    const body = multipart({ username: 'ana', password: 'correct horse' });
    body.append('avatar', new Blob(['not a field']), 'avatar.png');
    const res = await fetch(`${service.url}/token`, { method: 'POST', body });
    expect(res.status).toBe(200);
  });

  it('creates a user from a multipart form, a field named twice being a list (422)', async () => {
    const created = await fetch(`${service.url}/users/new/`, {
      method: 'POST',
      body: multipart({ username: 'mia', password: 'multipart pw' }),
    });
    expect(created.status).toBe(200);
    expect((await usersRows()).map((row) => row.username)).toContain('mia');
    const before = await usersRows();
    const twice = multipart({ username: 'twice', password: 'multipart pw' });
    twice.append('username', 'again');
    const refused = await fetch(`${service.url}/users/new/`, { method: 'POST', body: twice });
    expect(refused.status).toBe(422);
    expect(await usersRows()).toEqual(before);
  });

  it('refuses a multipart form past its limits with 413, and one it cannot read with 400, writing nothing', async () => {
    const before = await usersRows();
    const tooMany = multipart({ username: 'many', password: 'multipart pw' });
    for (let i = 0; i < 20; i++) tooMany.append(`extra${i}`, 'x');
    const many = await fetch(`${service.url}/users/new/`, { method: 'POST', body: tooMany });
    expect(many.status).toBe(413);
    expect(((await many.json()) as { detail: string }).detail).toBe('A form holds at most 20 fields');

    const long = await fetch(`${service.url}/users/new/`, {
      method: 'POST',
      body: multipart({ username: 'long', password: 'p'.repeat(64 * 1024 + 1) }),
    });
    expect(long.status).toBe(413);
    expect(((await long.json()) as { detail: string }).detail).toBe('A form field is over 65536 bytes');

    const files = multipart({ username: 'files', password: 'multipart pw' });
    for (let i = 0; i < 6; i++) files.append(`file${i}`, new Blob(['x']), `f${i}.png`);
    expect((await fetch(`${service.url}/users/new/`, { method: 'POST', body: files })).status).toBe(413);

    for (const headers of [{ 'content-type': 'multipart/form-data' }, { 'content-type': 'multipart/form-data; boundary=xyz' }]) {
      const res = await service.request('POST', '/users/new/', { raw: '--abc\r\nnot a part', headers });
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(/^Malformed multipart body/);
    }
    expect(await usersRows()).toEqual(before);
  });

  it('takes form bodies on its own routes only: elsewhere they stay a 415', async () => {
    const before = (await service.get('/prototypes')).body;
    const urlencoded = await service.request('POST', '/prototypes', form({ prototype_id: '40', prototype_name: 'x' }));
    expect(urlencoded.status).toBe(415);
    const multi = multipart({ prototype_id: '41', prototype_name: 'x' });
    expect((await fetch(`${service.url}/prototypes`, { method: 'POST', body: multi })).status).toBe(415);
    expect((await service.get('/prototypes')).body).toEqual(before);
    expect((await service.request('POST', '/token', { raw: 'username=ana', headers: { 'content-type': 'text/plain' } })).status).toBe(415);
  });

  it('refuses a username with control characters with 422, on both routes', async () => {
    const before = await usersRows();
    const created = await service.post('/users/new/', { username: 'nul\u0000name', password: 'long enough' });
    expect(created.status).toBe(422);
    expect(created.body.detail[0].loc).toEqual(['body', 'username']);
    expect((await service.post('/token', { username: 'nul\u0000name', password: 'long enough' })).status).toBe(422);
    expect(await usersRows()).toEqual(before);
  });

  it('accepts a username of exactly 64 characters and a password of exactly 8', async () => {
    const res = await service.request('POST', '/users/new/', form({ username: 'u'.repeat(64), password: '12345678' }));
    expect(res.status).toBe(200);
    expect((await login({ username: 'u'.repeat(64), password: '12345678' })).status).toBe(200);
  });

  it('documents the form content types of /token and /users/new/', async () => {
    const doc = (await service.get('/openapi.json')).body;
    for (const path of ['/token', '/users/new/']) {
      expect(Object.keys(doc.paths[path].post.requestBody.content)).toEqual(
        expect.arrayContaining(['application/x-www-form-urlencoded', 'multipart/form-data', 'application/json']),
      );
    }
  });

  it('refuses repeated failed logins with 429 for a while, then lets the right password in', async () => {
    service.clock.now = T0 + 24 * 3600_000;
    await service.request('POST', '/users/new/', form({ username: 'dee', password: 'right password' }));
    for (let i = 0; i < 5; i++) expect((await login({ username: 'dee', password: `wrong ${i}` })).status).toBe(401);
    const blocked = await login({ username: 'dee', password: 'right password' });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    service.clock.now = T0 + 24 * 3600_000 + 15 * 60_000 + 1;
    expect((await login({ username: 'dee', password: 'right password' })).status).toBe(200);
    service.clock.now = T0;
  });

  it('lets no burst of concurrent guesses past the limit', async () => {
    service.clock.now = T0 + 48 * 3600_000;
    await service.request('POST', '/users/new/', form({ username: 'eli', password: 'right password' }));
    const guesses = await Promise.all(Array.from({ length: 12 }, (_, i) => login({ username: 'eli', password: `guess ${i}` })));
    const statuses = guesses.map((g) => g.status).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
    service.clock.now = T0;
  });

  it('lets every other route work without a token in open mode', async () => {
    expect((await service.get('/prototypes')).status).toBe(200);
    expect((await service.post('/measurements', { sensor_id: 1, value: 1 })).status).toBe(200);
  });
});

describe.each(storeKinds())('login with an overlong username (%s)', (kind) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService(kind);
  });
  afterAll(() => service?.close());

  it('answers 422 beyond 64 characters, as /users/new/ does, and counts nothing against the address', async () => {
    const created = await service.request('POST', '/users/new/', form({ username: 'ana', password: 'correct horse' }));
    expect(created.status).toBe(200);
    // More attempts than the per-address limit (20): none may count, or the right password would get 429.
    for (let i = 0; i < 25; i++) {
      const res = await service.request('POST', '/token', form({ username: `${'u'.repeat(65_000)}${i}`, password: 'guess' }));
      expect(res.status).toBe(422);
      expect(res.body.detail[0]).toMatchObject({ loc: ['body', 'username'], type: 'string_too_long' });
    }
    const sixtyFive = await service.request('POST', '/token', form({ username: 'a'.repeat(65), password: 'guess' }));
    expect(sixtyFive.status).toBe(422);
    const login = await service.request('POST', '/token', form({ username: 'ana', password: 'correct horse' }));
    expect(login.status).toBe(200);
    expect((await service.store.users.list()).map((u) => u.username)).toEqual(['ana']);
  });
});

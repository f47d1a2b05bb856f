import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/auth/passwords.js';
import { startService, type TestService } from '../helpers/service.js';
import { type ScratchDatabase, scratchDatabase, storeKinds } from '../helpers/stores.js';

const form = (fields: Record<string, string>) => ({
  raw: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});

/**
 * In AUTH_MODE=open nobody says who they are, so user administration over HTTP would hand out
 * credentials that outlive the switch to enforced: it is refused, and the command line does it.
 */
describe.each(storeKinds())('user administration in AUTH_MODE=open (%s)', (kind) => {
  let database: ScratchDatabase;
  let open: TestService;
  let enforced: TestService | undefined;
  let ownerHash: string;
  beforeAll(async () => {
    database = await scratchDatabase(kind);
    open = await startService(kind, { database });
    // The operator's administrator, made with the command line (straight into the store).
    ownerHash = await hashPassword('owner password');
    await open.store.users.create({ username: 'owner', password_hash: ownerHash, permissions: 31, created_at: Date.now() });
  });
  afterAll(async () => {
    await open?.close();
    await enforced?.close();
    await database?.drop();
  });

  const refusals: [string, string, unknown][] = [
    ['GET', '/users', undefined],
    ['POST', '/users', { username: 'mallory', password: 'anonymous one', permissions: 31 }],
    ['POST', '/users', { username: 'x', password: 'short', permissions: 'not bits' }],
    ['PATCH', '/users/owner', { password: 'taken over now' }],
    ['PATCH', '/users/owner', { permissions: 0 }],
    ['DELETE', '/users/owner', undefined],
    ['POST', '/users/owner/tokens', { name: 'ten years', days: 3650 }],
    ['GET', '/users/owner/tokens', undefined],
    ['DELETE', '/tokens/1', undefined],
  ];

  it.each(refusals)('refuses %s %s with 403 naming AUTH_MODE=enforced and the command line', async (method, path, body) => {
    const res =
      body === undefined
        ? await open.request(method, path)
        : await open.request(method, path, { raw: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(403);
    expect(res.body.detail).toContain('AUTH_MODE=enforced');
    expect(res.body.detail).toContain('sensorhub users');
  });

  it('has written nothing: no user, no token, the password and permissions unchanged', async () => {
    const users = await open.store.users.list();
    expect(users.map((u) => [u.username, u.permissions])).toEqual([['owner', 31]]);
    expect((await open.store.users.get('owner'))?.password_hash).toBe(ownerHash);
    expect(await open.store.deviceTokens.listByUser(users[0].user_id)).toEqual([]);
  });

  it('after a restart in enforced mode, nothing tried in open mode works; the operator’s password does', async () => {
    await open.close();
    enforced = await startService(kind, { database, env: { AUTH_MODE: 'enforced' } });
    expect((await enforced.request('POST', '/token', form({ username: 'mallory', password: 'anonymous one' }))).status).toBe(401);
    expect((await enforced.request('POST', '/token', form({ username: 'owner', password: 'taken over now' }))).status).toBe(401);
    const login = await enforced.request('POST', '/token', form({ username: 'owner', password: 'owner password' }));
    expect(login.status).toBe(200);
    // In enforced mode the same routes serve an administrator.
    const list = await enforced.get('/users', { token: login.body.access_token });
    expect(list.status).toBe(200);
    expect(list.body.map((u: { username: string }) => u.username)).toEqual(['owner']);
  });
});

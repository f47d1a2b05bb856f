import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { openStream } from '../helpers/sse.js';
import { storeKinds } from '../helpers/stores.js';
import { SignJWT } from 'jose';
import { tokenSecret } from '../../src/auth/tokens.js';

const form = (fields: Record<string, string>) => ({
  raw: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
const HOUR = 3600_000;

/** Users, device tokens and sessions over HTTP (docs/api.md §6.1), AUTH_MODE=enforced. */
describe.each(storeKinds())('users, device tokens and sessions (%s)', (kind) => {
  let service: TestService;
  const logLines: string[] = [];
  /** Every secret the tests used: none may reach the log. */
  const secrets: string[] = [];
  let admin: string;
  let reader: string;
  beforeAll(async () => {
    service = await startService(kind, {
      env: { AUTH_MODE: 'enforced', TOKEN_TTL_MINUTES: '600', SESSION_MAX_DAYS: '1' },
      app: { logger: { level: 'info', stream: { write: (line: string) => logLines.push(line) } } as never },
    });
  });
  afterAll(() => service?.close());

  const userCount = async () => (await service.store.users.list()).length;
  const login = async (username: string, password: string) => {
    const res = await service.request('POST', '/token', form({ username, password }));
    expect(res.status).toBe(200);
    secrets.push(res.body.access_token);
    return res.body.access_token as string;
  };
  const newDeviceToken = async (username: string, name: string, days = 30) => {
    const res = await service.post(`/users/${username}/tokens`, { name, days }, { token: admin });
    expect(res.status).toBe(200);
    secrets.push(res.body.access_token);
    return res.body as { token_id: number; name: string; access_token: string; expires_at: string };
  };

  it('tells the login page a first administrator is needed until one exists', async () => {
    expect((await service.get('/ui/settings.json')).body.needs_first_admin).toBe(true);
    secrets.push('first admin pass');
    const res = await service.request('POST', '/users/new/', form({ username: 'root', password: 'first admin pass' }));
    expect(res.status).toBe(200);
    admin = res.body.access_token;
    secrets.push(admin);
    expect(claimsOf(admin).permissions).toBe(31);
    expect((await service.get('/ui/settings.json')).body.needs_first_admin).toBe(false);
  });

  describe('user administration', () => {
    it('creates users with permissions as names or bits, and lists them', async () => {
      secrets.push('reader password', 'pump password');
      const created = await service.post(
        '/users',
        { username: 'rita', password: 'reader password', permissions: ['read'] },
        { token: admin },
      );
      expect(created.status).toBe(200);
      expect(created.body).toEqual({ username: 'rita', permissions: 2, created_at: expect.stringMatching(/Z$/) });
      const pump = await service.post('/users', { username: 'pump', password: 'pump password', permissions: 16 }, { token: admin });
      expect(pump.status).toBe(200);
      expect(pump.body.permissions).toBe(16);
      const list = await service.get('/users', { token: admin });
      expect(list.status).toBe(200);
      expect(list.body.map((u: { username: string; permissions: number }) => [u.username, u.permissions])).toEqual([
        ['pump', 16],
        ['rita', 2],
        ['root', 31],
      ]);
      reader = await login('rita', 'reader password');
    });

    it.each([
      ['an unknown permission name', { username: 'x1', password: 'long enough', permissions: ['read', 'superuser'] }, 422],
      ['permission bits out of range', { username: 'x2', password: 'long enough', permissions: 32 }, 422],
      ['a password under 8 characters', { username: 'x3', password: 'short', permissions: 2 }, 422],
      ['an empty username', { username: '', password: 'long enough', permissions: 2 }, 422],
      ['a username over 64 characters', { username: 'u'.repeat(65), password: 'long enough', permissions: 2 }, 422],
      ['no permissions', { username: 'x4', password: 'long enough' }, 422],
      ['a taken username', { username: 'rita', password: 'another password', permissions: 15 }, 409],
    ])('refuses %s and writes nothing', async (_what, body, status) => {
      const before = await userCount();
      const res = await service.post('/users', body, { token: admin });
      expect(res.status).toBe(status);
      expect(res.body.detail).toBeDefined();
      expect(await userCount()).toBe(before);
      expect((await service.store.users.get('rita'))!.permissions).toBe(2);
    });

    it('needs admin (8) for every user route: 403 without it, 401 without a token', async () => {
      const calls: [string, string, unknown][] = [
        ['GET', '/users', undefined],
        ['POST', '/users', { username: 'eve', password: 'long enough', permissions: 31 }],
        ['PATCH', '/users/rita', { permissions: 31 }],
        ['DELETE', '/users/root', undefined],
        ['POST', '/users/rita/tokens', { name: 'mine', days: 5 }],
      ];
      for (const [method, path, json] of calls) {
        const headers: Record<string, string> = json === undefined ? {} : { 'content-type': 'application/json' };
        const raw = json === undefined ? undefined : JSON.stringify(json);
        expect((await service.request(method, path, { token: reader, headers, raw })).status).toBe(403);
        expect((await service.request(method, path, { headers, raw })).status).toBe(401);
      }
      expect(await service.store.users.get('eve')).toBeUndefined();
      expect((await service.store.users.get('rita'))!.permissions).toBe(2);
      expect(await service.store.users.get('root')).toBeDefined();
      expect(await service.store.deviceTokens.listByUser((await service.store.users.get('rita'))!.user_id)).toEqual([]);
    });

    it('changes permissions and passwords; a new password ends the sessions of the old one', async () => {
      secrets.push('temporary one', 'new reader password');
      const other = await service.post('/users', { username: 'tom', password: 'temporary one', permissions: 2 }, { token: admin });
      expect(other.status).toBe(200);
      const session = await login('tom', 'temporary one');
      const changed = await service.patch('/users/tom', { permissions: ['read', 'modify'] }, { token: admin });
      expect(changed.status).toBe(200);
      expect(changed.body.permissions).toBe(6);
      expect((await service.get('/prototypes', { token: session })).status).toBe(200);
      const withPassword = await service.patch('/users/tom', { password: 'new reader password' }, { token: admin });
      expect(withPassword.status).toBe(200);
      expect((await service.get('/prototypes', { token: session })).status).toBe(401);
      await login('tom', 'new reader password');
      const unknown = await service.patch('/users/nobody', { permissions: 2 }, { token: admin });
      expect(unknown.status).toBe(404);
      for (const body of [{ permissions: ['root'] }, { password: 'short' }, { permissions: -1 }]) {
        expect((await service.patch('/users/tom', body, { token: admin })).status).toBe(422);
      }
      expect((await service.store.users.get('tom'))!.permissions).toBe(6);
    });

    it('never removes or demotes the last administrator (409), and removes others (204)', async () => {
      const demote = await service.patch('/users/root', { permissions: ['read', 'modify'] }, { token: admin });
      expect(demote.status).toBe(409);
      expect((await service.store.users.get('root'))!.permissions).toBe(31);
      const remove = await service.request('DELETE', '/users/root', { token: admin });
      expect(remove.status).toBe(409);
      expect(await service.store.users.get('root')).toBeDefined();
      // With a second administrator, the first may go.
      expect((await service.patch('/users/tom', { permissions: 15 }, { token: admin })).status).toBe(200);
      expect((await service.patch('/users/tom', { permissions: 6 }, { token: admin })).status).toBe(200);
      const tomToken = await login('tom', 'new reader password');
      expect((await service.request('DELETE', '/users/tom', { token: admin })).status).toBe(204);
      expect(await service.store.users.get('tom')).toBeUndefined();
      expect((await service.get('/prototypes', { token: tomToken })).status).toBe(401);
      expect((await service.request('DELETE', '/users/tom', { token: admin })).status).toBe(404);
    });
  });

  describe('device tokens', () => {
    it('are issued once with their secret, and listed without it', async () => {
      const issued = await newDeviceToken('pump', 'pump controller', 365);
      expect(issued).toEqual({
        token_id: expect.any(Number),
        name: 'pump controller',
        access_token: expect.any(String),
        expires_at: expect.stringMatching(/Z$/),
        prototype_ids: null,
      });
      const days = (Date.parse(issued.expires_at) - Date.now()) / (24 * HOUR);
      expect(days).toBeGreaterThan(364.9);
      expect(days).toBeLessThan(365.1);
      const list = await service.get('/users/pump/tokens', { token: admin });
      expect(list.status).toBe(200);
      expect(list.body).toEqual([
        {
          token_id: issued.token_id,
          name: 'pump controller',
          created_at: expect.any(String),
          expires_at: issued.expires_at,
          last_used_at: null,
          prototype_ids: null,
        },
      ]);
      expect(list.text).not.toContain(issued.access_token);
      expect((await service.get('/users/nobody/tokens', { token: admin })).status).toBe(404);
      expect((await service.post('/users/nobody/tokens', { name: 'x', days: 1 }, { token: admin })).status).toBe(404);
    });

    it.each([
      ['days 0', { name: 'n', days: 0 }],
      ['days 3651', { name: 'n', days: 3651 }],
      ['days not a number', { name: 'n', days: 'soon' }],
      ['no name', { days: 5 }],
      ['an empty name', { name: '', days: 5 }],
    ])('refuses %s with 422 and writes nothing', async (_what, body) => {
      const userId = (await service.store.users.get('rita'))!.user_id;
      const before = (await service.store.deviceTokens.listByUser(userId)).length;
      const res = await service.post('/users/rita/tokens', body, { token: admin });
      expect(res.status).toBe(422);
      expect((await service.store.deviceTokens.listByUser(userId)).length).toBe(before);
    });

    it('a control-only token polls state, lists and reports runs, follows actuator events, and nothing else', async () => {
      const pump = (await newDeviceToken('pump', 'tank pump')).access_token;
      expect((await service.get('/actuators/1/state', { token: pump })).status).toBe(200);
      expect((await service.get('/actuators/0', { token: pump })).status).toBe(200);
      const before = (await service.get('/actuators/0', { token: admin })).body[0];
      const settings = await service.patch('/actuators', [{ actuator_id: 1, condition_value: 1 }], { token: pump });
      expect(settings.status).toBe(403);
      expect((await service.get('/actuators/0', { token: admin })).body[0].condition_value).toBe(before.condition_value);
      expect((await service.get('/prototypes', { token: pump })).status).toBe(403);
      expect((await service.get('/measurements/1', { token: pump })).status).toBe(403);
      expect((await service.get('/users/pump/tokens', { token: pump })).status).toBe(403);
      const refused = await openStream(`${service.url}/events`, { authorization: `Bearer ${pump}` });
      expect(refused.status).toBe(403);
      refused.close();
      const stream = await openStream(`${service.url}/events?types=actuator`, { authorization: `Bearer ${pump}` });
      expect(stream.status).toBe(200);
      const ran = await service.request('PATCH', '/actuators/1/last_activated', { token: pump });
      expect(ran.status).toBe(200);
      const event = await stream.next((e) => e.event === 'actuator');
      expect(JSON.parse(event.data).actuator.actuator_id).toBe(1);
      stream.close();
    });

    it('its user lists and revokes its own (read), not another’s; an administrator anyone’s', async () => {
      const mine = await newDeviceToken('rita', 'rita display');
      const pumpTokens = (await service.get('/users/pump/tokens', { token: admin })).body;
      expect((await service.get('/users/rita/tokens', { token: reader })).status).toBe(200);
      expect((await service.get('/users/pump/tokens', { token: reader })).status).toBe(403);
      expect((await service.get('/users/nobody/tokens', { token: reader })).status).toBe(403);
      const other = await service.request('DELETE', `/tokens/${pumpTokens[0].token_id}`, { token: reader });
      expect(other.status).toBe(403);
      expect(await service.store.deviceTokens.get(pumpTokens[0].token_id)).toBeDefined();
      expect((await service.request('DELETE', `/tokens/${mine.token_id}`, { token: reader })).status).toBe(204);
      expect((await service.get('/prototypes', { token: mine.access_token })).status).toBe(401);
      expect((await service.request('DELETE', `/tokens/${mine.token_id}`, { token: admin })).status).toBe(404);
      expect((await service.request('DELETE', '/tokens/abc', { token: admin })).status).toBe(422);
    });

    it('notes when a token was last used, to within a minute', async () => {
      const device = await newDeviceToken('rita', 'sensor script');
      const usedAt = Date.now();
      expect((await service.get('/prototypes', { token: device.access_token })).status).toBe(200);
      const listed = (await service.get('/users/rita/tokens', { token: reader })).body.find(
        (t: { token_id: number }) => t.token_id === device.token_id,
      );
      expect(Math.abs(Date.parse(listed.last_used_at) - usedAt)).toBeLessThan(60_000);
    });

    it('revoking one ends its open event stream, and leaves the user’s other tokens alone', async () => {
      const one = await newDeviceToken('rita', 'kitchen tablet');
      const two = await newDeviceToken('rita', 'hall tablet');
      const stream = await openStream(`${service.url}/events?types=prototype&access_token=${encodeURIComponent(one.access_token)}`);
      const kept = await openStream(`${service.url}/events?types=prototype`, { authorization: `Bearer ${two.access_token}` });
      expect(stream.status).toBe(200);
      expect((await service.request('DELETE', `/tokens/${one.token_id}`, { token: admin })).status).toBe(204);
      await stream.ended;
      expect((await service.get('/prototypes', { token: one.access_token })).status).toBe(401);
      expect((await service.get('/prototypes', { token: two.access_token })).status).toBe(200);
      // The other stream still hears of changes.
      expect((await service.post('/prototypes', { prototype_id: 90, prototype_name: 'still here' }, { token: admin })).status).toBe(200);
      await kept.next((e) => e.event === 'prototype');
      kept.close();
    });
  });

  describe('sessions', () => {
    it('logout ends the tokens obtained with a password, not the device tokens', async () => {
      const session = await login('rita', 'reader password');
      const device = await newDeviceToken('rita', 'wall display');
      const stream = await openStream(`${service.url}/events?types=prototype`, { authorization: `Bearer ${session}` });
      const res = await service.post('/users/logout/', undefined, { token: session });
      expect(res.status).toBe(200);
      await stream.ended;
      expect((await service.get('/prototypes', { token: session })).status).toBe(401);
      expect((await service.get('/prototypes', { token: reader })).status).toBe(401);
      expect((await service.get('/prototypes', { token: device.access_token })).status).toBe(200);
      reader = await login('rita', 'reader password');
    });

    it('a refresh gives a fresh lifetime, up to SESSION_MAX_DAYS after the password', async () => {
      const start = Date.now();
      service.clock.now = start;
      try {
        let token = await login('rita', 'reader password');
        expect(claimsOf(token).exp * 1000).toBeCloseTo(start + 10 * HOUR, -4);
        service.clock.now = start + 9 * HOUR;
        let res = await service.post('/token/refresh', undefined, { token });
        expect(res.status).toBe(200);
        token = res.body.access_token;
        secrets.push(token);
        expect(res.body.token_type).toBe('bearer');
        expect(claimsOf(token).exp * 1000).toBeCloseTo(start + 19 * HOUR, -4);
        expect(claimsOf(token).permissions).toBe(2);
        // The next refresh is capped at a day after the password.
        service.clock.now = start + 18 * HOUR;
        res = await service.post('/token/refresh', undefined, { token });
        expect(res.status).toBe(200);
        token = res.body.access_token;
        secrets.push(token);
        expect(claimsOf(token).exp * 1000).toBeLessThanOrEqual(start + 24 * HOUR);
        expect(claimsOf(token).exp * 1000).toBeGreaterThan(start + 24 * HOUR - 2000);
        service.clock.now = start + 23 * HOUR;
        expect((await service.get('/prototypes', { token })).status).toBe(200);
        service.clock.now = start + 24 * HOUR + 1000;
        expect((await service.post('/token/refresh', undefined, { token })).status).toBe(401);
        expect((await service.get('/prototypes', { token })).status).toBe(401);
      } finally {
        service.clock.now = undefined;
      }
    });

    it('refuses to refresh a device token or no token (401)', async () => {
      const device = await newDeviceToken('rita', 'refresh attempt');
      expect((await service.post('/token/refresh', undefined, { token: device.access_token })).status).toBe(401);
      expect((await service.post('/token/refresh')).status).toBe(401);
      expect((await service.post('/token/refresh', undefined, { token: 'not.a.token' })).status).toBe(401);
    });

    it('tokens made before device tokens were stored keep working (and end at a logout, as they did)', async () => {
      const user = (await service.store.users.create({
        username: 'old-device',
        password_hash: 'unused',
        permissions: 2,
        created_at: Date.now(),
      }))!;
      // What the users command line signed before: no token id, no session claims.
      const legacy = await new SignJWT({ permissions: 2, uid: user.user_id, gen: user.token_generation })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject('old-device')
        .setIssuedAt()
        .setExpirationTime('365d')
        .setJti('legacy')
        .sign(await tokenSecret(undefined, service.store.settings));
      secrets.push(legacy);
      expect((await service.get('/prototypes', { token: legacy })).status).toBe(200);
      expect((await service.post('/users/logout/', undefined, { token: legacy })).status).toBe(200);
      expect((await service.get('/prototypes', { token: legacy })).status).toBe(401);
    });
  });

  describe('PATCH /prototypes/{id} in enforced mode', () => {
    it('needs modify (4)', async () => {
      expect((await service.patch('/prototypes/0', { prototype_name: 'renamed' }, { token: reader })).status).toBe(403);
      expect((await service.get('/prototypes/0', { token: admin })).body.prototype_name).toBe('default_prototype');
      expect((await service.patch('/prototypes/0', { prototype_name: 'renamed' }, { token: admin })).status).toBe(200);
    });
  });

  it('writes an audit line for every change, never with a password or token', async () => {
    const audits = logLines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'audit');
    const actions = audits.map((entry) => entry.audit.action);
    for (const action of [
      'user created',
      'permissions changed',
      'password changed',
      'user removed',
      'device token created',
      'device token revoked',
      'logged out',
    ]) {
      expect(actions).toContain(action);
    }
    const created = audits.find((entry) => entry.audit.action === 'user created' && entry.audit.username === 'rita');
    expect(created.audit.actor).toBe('root');
    expect(created.at).toMatch(/Z$/);
    const all = logLines.join('\n');
    for (const secret of secrets) expect(all).not.toContain(secret);
    expect(all).not.toMatch(/argon2/);
  });
});

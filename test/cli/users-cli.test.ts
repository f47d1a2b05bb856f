import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usersCommand } from '../../src/cli/users-command.js';
import { openStore, type Store } from '../../src/store/index.js';
import { BUILT, run } from '../helpers/process.js';
import { startService } from '../helpers/service.js';
import { type ScratchDatabase, scratchDatabase } from '../helpers/stores.js';

/** The commands run in this process, on a store of their own as the tool opens it; output collected as the tool prints it. */
function inProcess(store: () => Store, tokenSecret?: string) {
  return async (...args: string[]) => {
    const stdout: string[] = [];
    const stderr: string[] = [];
    const code = await usersCommand(args, {
      store: store(),
      tokenTtlMinutes: 60,
      tokenSecret,
      out: (line) => stdout.push(`${line}\n`),
      err: (line) => stderr.push(`${line}\n`),
    });
    return { code, stdout: stdout.join(''), stderr: stderr.join('') };
  };
}

describe('users command-line tool', () => {
  let database: ScratchDatabase;
  let store: Store;
  const users = inProcess(() => store);
  beforeAll(async () => {
    database = await scratchDatabase('sqlite');
    store = await openStore(database.url);
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  it('adds a device, prints its token, and the service accepts it for what it may do', async () => {
    // The server generates its secret in the store at first start; the CLI signs with it.
    await (await startService('sqlite', { database })).close();
    const added = await users('add', 'tank-pi', '--permissions', 'post_measurements');
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('added tank-pi (post_measurements)');
    const password = /password: (\S{12,})/.exec(added.stdout)?.[1];
    expect(password).toBeDefined();
    const token = await users('token', 'tank-pi', '--days', '365');
    expect(token.code).toBe(0);
    const jwt = token.stdout.trim();
    const payload = JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString());
    expect(payload.exp - payload.iat).toBe(365 * 24 * 3600);

    const service = await startService('sqlite', { database, env: { AUTH_MODE: 'enforced' } });
    try {
      const post = await fetch(`${service.url}/measurements`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${jwt}` },
        body: JSON.stringify({ sensor_id: '2', value: 6.4 }),
      });
      expect(post.status).toBe(200);
      const write = await fetch(`${service.url}/prototypes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${jwt}` },
        body: JSON.stringify({ prototype_id: 1, prototype_name: 'x' }),
      });
      expect(write.status).toBe(403);

      // The generated password is the device's login too.
      const login = await fetch(`${service.url}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ username: 'tank-pi', password: password! }),
      });
      expect(login.status).toBe(200);

      // A leaked device token is revoked from the command line; a new one works.
      expect((await users('revoke', 'tank-pi')).code).toBe(0);
      const revoked = await fetch(`${service.url}/measurements`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${jwt}` },
        body: JSON.stringify({ sensor_id: 2, value: 6.5 }),
      });
      expect(revoked.status).toBe(401);
      const renewed = (await users('token', 'tank-pi', '--days', '30')).stdout.trim();
      const again = await fetch(`${service.url}/measurements`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${renewed}` },
        body: JSON.stringify({ sensor_id: 2, value: 6.6 }),
      });
      expect(again.status).toBe(200);
    } finally {
      await service.close();
    }
  });

  it('lists, changes permissions and removes users', async () => {
    expect((await users('add', 'ana', '--password', 'long enough')).code).toBe(0);
    expect((await users('set-permissions', 'ana', 'read,admin')).stdout).toContain('ana: read, admin');
    const list = await users('list');
    expect(list.stdout).toMatch(/ana\tread,admin/);
    expect(list.stdout).toMatch(/tank-pi\tpost_measurements/);
    expect((await users('remove', 'ana')).code).toBe(0);
    expect((await users('list')).stdout).not.toContain('ana');
  });

  it('refuses with exit 1 and a message, or 2 for wrong usage', async () => {
    const duplicate = await users('add', 'tank-pi');
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain('already exists');
    expect((await users('token', 'nobody')).code).toBe(1);
    expect((await users('add', 'x', '--permissions', 'fly')).stderr).toContain('unknown permission "fly"');
    expect((await users('add', 'x', '--password', 'short')).code).toBe(1);
    expect((await users('add', 'x', '--permissions', 'constructor')).code).toBe(1);
    expect((await users('set-permissions', 'nobody', 'read')).stderr).toContain('no user "nobody"');
    expect((await users('remove', 'nobody')).code).toBe(1);
    expect((await users('revoke', 'nobody')).code).toBe(1);
    expect((await users('token', 'tank-pi', '--days', '0')).code).toBe(2);
    expect((await users('token', 'tank-pi', '--days', 'soon')).code).toBe(2);
    expect((await users('list')).stdout).not.toMatch(/^x\t/m);
    const usage = await users('frobnicate');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Usage:');
    expect((await users('--help')).stdout).toContain('set-permissions');
  });
});

describe('users command-line tool and the token secret', () => {
  let database: ScratchDatabase;
  let store: Store;
  let workdir: string;
  const SECRET = 'the-servers-own-secret-of-enough-length';
  const users = inProcess(() => store);
  beforeAll(async () => {
    database = await scratchDatabase('sqlite');
    store = await openStore(database.url);
    workdir = mkdtempSync(join(tmpdir(), 'sensorhub-cli-'));
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
    rmSync(workdir, { recursive: true, force: true });
  });

  it('refuses to sign when neither TOKEN_SECRET nor a stored secret exists, and stores none', async () => {
    expect((await users('add', 'pi', '--password', 'long enough')).code).toBe(0);
    const token = await users('token', 'pi');
    expect(token.code).toBe(1);
    expect(token.stdout).toBe('');
    expect(token.stderr).toContain('TOKEN_SECRET is not set and the store holds no generated secret');
    // Still nothing to sign with: the refusal generated no secret behind the server's back.
    expect((await users('token', 'pi')).code).toBe(1);
  });

  // The one test that runs the tool as its own process: from another working directory, it reads
  // the .env there as the server does, opens the store DATABASE_URL names and signs.
  it('signs with the TOKEN_SECRET of the .env in its working directory, and the server accepts the token', async () => {
    const service = await startService('sqlite', { database, env: { AUTH_MODE: 'enforced', TOKEN_SECRET: SECRET } });
    try {
      writeFileSync(join(workdir, '.env'), `DATABASE_URL=${database.url}\nTOKEN_SECRET=${SECRET}\n`);
      const token = await run(process.execPath, [BUILT.users, 'token', 'pi'], { cwd: workdir, env: {} });
      expect(token.code).toBe(0);
      const read = await fetch(`${service.url}/prototypes`, { headers: { authorization: `Bearer ${token.stdout.trim()}` } });
      expect(read.status).toBe(200);
    } finally {
      await service.close();
      rmSync(join(workdir, '.env'));
    }
  });

  it('refuses a TOKEN_SECRET other than the server’s, or none when the server has one', async () => {
    const other = await inProcess(() => store, 'another-secret-that-is-long-enough-too')('token', 'pi');
    expect(other.code).toBe(1);
    expect(other.stdout).toBe('');
    expect(other.stderr).toContain('TOKEN_SECRET differs from the secret the server on this store was started with');
    const none = await users('token', 'pi');
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('the server on this store was started with one');
  });
});

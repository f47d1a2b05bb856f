import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { type ScratchDatabase, scratchDatabase, storeKinds } from '../helpers/stores.js';

const form = (fields: Record<string, string>) => ({
  raw: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});

describe.each(storeKinds())('switching from AUTH_MODE=open to enforced (%s)', (kind) => {
  let database: ScratchDatabase;
  let open: TestService;
  let enforced: TestService | undefined;
  beforeAll(async () => {
    database = await scratchDatabase(kind);
    open = await startService(kind, { database });
  });
  afterAll(async () => {
    await open?.close();
    await enforced?.close();
    await database?.drop();
  });

  it('leaves no administrator behind that an anonymous caller made in open mode', async () => {
    const made = await open.request('POST', '/users/new/', form({ username: 'mallory', password: 'anonymous one' }));
    expect(made.status).toBe(200);
    const token = made.body.access_token as string;
    await open.close();

    enforced = await startService(kind, { database, env: { AUTH_MODE: 'enforced' } });
    // The open-mode token reads and writes as a user may, but administers nobody.
    expect((await enforced.get('/prototypes', { token })).status).toBe(200);
    const promoted = await enforced.request('POST', '/users/new/', {
      ...form({ username: 'mallory2', password: 'second account' }),
      token,
    });
    expect(promoted.status).toBe(403);
    // A user exists, so the anonymous bootstrap is closed as well: the operator uses the CLI.
    const bootstrap = await enforced.request('POST', '/users/new/', form({ username: 'operator', password: 'operator pass' }));
    expect(bootstrap.status).toBe(401);
    expect((await enforced.store.users.list()).map((u) => [u.username, u.permissions])).toEqual([['mallory', 6]]);
  });
});

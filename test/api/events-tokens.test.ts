import { beforeAll, describe, expect, it } from 'vitest';
import { tokenSecret, tokenService, type TokenService } from '../../src/auth/tokens.js';
import { TOKEN_CHECK_MS } from '../../src/events/index.js';
import { startService } from '../helpers/service.js';
import { liveService, openStream, type SseStream } from '../helpers/sse.js';
import { storeKinds } from '../helpers/stores.js';

const expiryOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).exp * 1000;

describe.each(storeKinds())('event streams last as long as their token (AUTH_MODE=enforced, %s)', (kind) => {
  const { service, manual, streams, ...live } = liveService(kind, undefined, (timers) => ({
    env: { AUTH_MODE: 'enforced' },
    app: { liveEvents: { timers } },
  }));
  let tokens: TokenService;
  let nextPrototype = 500;
  const open = (token: string) => live.open('?types=prototype', { authorization: `Bearer ${token}` });
  /** A user made in the store, as the command-line tool makes them, and a token issued now. */
  const userWithToken = async (username: string, permissions: number, ttlMs?: number) => {
    const user = await service.store.users.create({ username, password_hash: 'unused', permissions, created_at: Date.now() });
    return tokens.issue(user!, service.clock.now ?? Date.now(), ttlMs);
  };
  /** A prototype made with `token`: every open stream that reads prototypes is told of it. */
  const newPrototype = async (token: string) => {
    const prototype_id = nextPrototype++;
    expect((await service.post('/prototypes', { prototype_id, prototype_name: `p${prototype_id}` }, { token })).status).toBe(200);
    return prototype_id;
  };
  const toldOf = (stream: SseStream, prototypeId: number) =>
    stream.next((e) => e.event === 'prototype' && JSON.parse(e.data).prototype_id === prototypeId);

  beforeAll(async () => {
    tokens = tokenService(await tokenSecret(undefined, service.store.settings), 3600_000);
  });

  it('ends a stream when its token expires, and the token then gets a 401', async () => {
    service.clock.now = Date.now();
    const short = await userWithToken('short', 15, 60_000);
    const other = await userWithToken('long', 15);
    const expiring = await open(short);
    const lasting = await open(other);
    expect([expiring.status, lasting.status]).toEqual([200, 200]);
    const expiresAt = expiryOf(short);
    expect(manual.due()).toContain(expiresAt);

    // A moment before: both streams are told of a change.
    manual.advanceTo(expiresAt - 1);
    const before = await newPrototype(other);
    await toldOf(expiring, before);
    await toldOf(lasting, before);

    manual.advanceTo(expiresAt);
    await expiring.ended;
    expect(service.app.liveEvents.streams.count).toBe(1);
    await toldOf(lasting, await newPrototype(other));
    const again = await open(short);
    expect(again.status).toBe(401);
    service.clock.now = undefined;
  });

  it('ends the streams of a user who logs out, and only theirs', async () => {
    const leaving = await userWithToken('leaving', 15);
    const staying = await userWithToken('staying', 2);
    const [first, second, kept] = [await open(leaving), await open(leaving), await open(staying)];
    const open0 = service.app.liveEvents.streams.count;

    expect((await service.post('/users/logout/', undefined, { token: leaving })).status).toBe(200);
    await Promise.all([first.ended, second.ended]);
    expect(service.app.liveEvents.streams.count).toBe(open0 - 2);

    // A token issued after the logout opens a stream that stays, as does the other user's.
    const user = (await service.store.users.get('leaving'))!;
    const fresh = await tokens.issue(user, Date.now());
    const reopened = await open(fresh);
    expect(reopened.status).toBe(200);
    expect((await open(leaving)).status).toBe(401);
    const id = await newPrototype(fresh);
    await toldOf(kept, id);
    await toldOf(reopened, id);
  });

  it('ends, at the next check, the streams of users removed, revoked or denied reading outside the service', async () => {
    const [removed, revoked, narrowed, staying] = [
      await userWithToken('removed', 2),
      await userWithToken('revoked', 2),
      await userWithToken('narrowed', 3),
      await userWithToken('kept', 15),
    ];
    const ending = [await open(removed), await open(revoked), await open(narrowed)];
    const kept = await open(staying);
    const open0 = service.app.liveEvents.streams.count;
    // What the users command line does: `remove`, `revoke`, `set-permissions`, on the store directly.
    await service.store.users.remove('removed');
    await service.store.users.revokeTokens((await service.store.users.get('revoked'))!.user_id, Date.now());
    await service.store.users.setPermissions('narrowed', 1);

    // The check rings at most one period after the clock it was set by, which never ran ahead of now by more.
    manual.advanceTo(Date.now() + 2 * TOKEN_CHECK_MS);
    await Promise.all(ending.map((stream) => stream.ended));
    expect(service.app.liveEvents.streams.count).toBe(open0 - 3);
    await toldOf(kept, await newPrototype(staying));
    expect([(await open(removed)).status, (await open(revoked)).status, (await open(narrowed)).status]).toEqual([401, 401, 403]);
    service.clock.now = undefined;
  });

  // Instances share events only through PostgreSQL.
  if (kind === 'postgres')
    it('ends them on every instance of the database', async () => {
      const other = await startService(kind, { database: service.database, env: { AUTH_MODE: 'enforced' } });
      try {
        const leaving = await userWithToken('leaving elsewhere', 15);
        const staying = await userWithToken('staying elsewhere', 15);
        const elsewhere = await openStream(`${other.url}/events?types=prototype`, { authorization: `Bearer ${leaving}` });
        const kept = await openStream(`${other.url}/events?types=prototype`, { authorization: `Bearer ${staying}` });
        streams.push(elsewhere, kept);
        expect((await service.post('/users/logout/', undefined, { token: leaving })).status).toBe(200);
        await elsewhere.ended;
        await toldOf(kept, await newPrototype(staying));
        expect(other.app.liveEvents.streams.count).toBe(1);
      } finally {
        for (const stream of streams) stream.close();
        await other.close();
      }
    });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';
import { tokenFor } from '../helpers/tokens.js';

/** Whoever may make a device token may also list and revoke it (docs/api.md §6.1), AUTH_MODE=enforced. */
describe.each(storeKinds())('device-token routes and permissions (%s)', (kind) => {
  let service: TestService;
  let adminOnly: string;
  let poster: string;
  beforeAll(async () => {
    service = await startService(kind, { env: { AUTH_MODE: 'enforced' } });
    await tokenFor(service.store, 'root', 31);
    adminOnly = await tokenFor(service.store, 'keeper', 8);
    poster = await tokenFor(service.store, 'board', 1);
  });
  afterAll(() => service?.close());

  it('lets an administrator without read create, list and revoke', async () => {
    const made = await service.post('/users/board/tokens', { name: 'pH board', days: 30 }, { token: adminOnly });
    expect(made.status).toBe(200);
    const listed = await service.get('/users/board/tokens', { token: adminOnly });
    expect(listed.status).toBe(200);
    expect(listed.body.map((t: { token_id: number }) => t.token_id)).toEqual([made.body.token_id]);
    expect((await service.request('DELETE', `/tokens/${made.body.token_id}`, { token: adminOnly })).status).toBe(204);
    expect((await service.get('/users/board/tokens', { token: adminOnly })).body).toEqual([]);
  });

  it('refuses all three to a token with neither read nor admin, and revokes nothing', async () => {
    const made = await service.post('/users/board/tokens', { name: 'kept', days: 30 }, { token: adminOnly });
    expect((await service.post('/users/board/tokens', { name: 'x', days: 30 }, { token: poster })).status).toBe(403);
    expect((await service.get('/users/board/tokens', { token: poster })).status).toBe(403);
    expect((await service.request('DELETE', `/tokens/${made.body.token_id}`, { token: poster })).status).toBe(403);
    const left = (await service.get('/users/board/tokens', { token: adminOnly })).body;
    expect(left.map((t: { name: string }) => t.name)).toEqual(['kept']);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/simulator/cli.js';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';
import { tokenFor } from '../helpers/tokens.js';

/**
 * `npm run simulate` against a service in enforced mode checks its token before it changes
 * anything: a token without post_measurements, read or modify, a refused token or none stops the
 * run with a message naming what is missing, and the tank is as it was.
 */
describe.each(storeKinds())('a live simulation in enforced mode (%s)', (kind) => {
  let service: TestService;
  let admin: string;
  beforeAll(async () => {
    service = await startService(kind, { env: { AUTH_MODE: 'enforced' } });
    admin = await tokenFor(service.store, 'admin', 31);
  });
  afterAll(() => service?.close());

  const tank = async () => ({
    sensors: (await service.get('/sensors/0', { token: admin })).body,
    actuators: (await service.get('/actuators/0', { token: admin })).body,
  });
  async function simulate(...extra: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(['--url', service.url, '--hours', String(2 / 3600), '--every', '1', '--poll', '1', ...extra], {
      out: (line) => out.push(line),
      err: (line) => err.push(line),
    });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  it('refuses a token without post_measurements, naming it, before changing anything', async () => {
    const before = await tank();
    const editor = await tokenFor(service.store, 'editor', 2 | 4);
    const refused = await simulate('--token', editor);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/lacks post_measurements \(1\)/);
    expect(refused.err).toMatch(/Nothing was changed/);
    expect(refused.out).toBe('');
    expect(await tank()).toEqual(before);
  });

  it('refuses without a token and with a refused one', async () => {
    const before = await tank();
    const none = await simulate();
    expect(none.code).toBe(1);
    expect(none.err).toMatch(/AUTH_MODE=enforced: give --token with the permissions post_measurements \(1\), read \(2\), modify \(4\)/);
    const bad = await simulate('--token', 'not.a.token');
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/token was refused/);
    expect(await tank()).toEqual(before);
  });

  it('runs with post_measurements, read and modify', async () => {
    const device = await tokenFor(service.store, 'simulator', 1 | 2 | 4);
    const ran = await simulate('--token', device);
    expect(ran.err).toBe('');
    expect(ran.code).toBe(0);
  });
});

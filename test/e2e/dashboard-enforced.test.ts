import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/auth/passwords.js';
import { PERMISSIONS } from '../../src/auth/permissions.js';
import { startService, type TestService } from '../helpers/service.js';
import { launchBrowser, openPage, screenshot, seriousAccessibilityViolations, WIDTHS } from './browser.js';
import { seedDay } from './dashboard-data.js';

const ADMIN = { username: 'grower', password: 'tomatoes-2026' };
const VIEWER = { username: 'visitor', password: 'looking-only' };
/** Generous for a loaded machine: an event reaches the page within milliseconds. */
const LIVE_WAIT_MS = 10_000;

describe('dashboard in a real browser (enforced mode)', () => {
  let service: TestService;
  let browser: Browser;
  let adminToken: string;

  beforeAll(async () => {
    service = await startService('sqlite', { env: { AUTH_MODE: 'enforced' } });
    const first = await service.request('POST', '/users/new/', {
      raw: new URLSearchParams(ADMIN).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(first.status).toBeLessThan(300);
    adminToken = first.body.access_token;
    await service.store.users.create({
      username: VIEWER.username,
      password_hash: await hashPassword(VIEWER.password),
      permissions: PERMISSIONS.read,
      created_at: Date.now(),
    });
    // Seeding goes through the API like a device, with the administrator's token.
    const authorised = { ...service, post: (path: string, body?: unknown) => service.post(path, body, { token: adminToken }) };
    await seedDay(authorised as TestService);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  async function logIn(page: Page, who: { username: string; password: string }) {
    await page.goto(`${service.url}/`);
    await page.getByLabel('Username').fill(who.username);
    await page.getByLabel('Password').fill(who.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('.overview[data-loaded]').waitFor();
  }

  it("keeps the dashboard's own files public while the API needs a token", async () => {
    expect((await service.get('/prototypes')).status).toBe(401);
    const index = await service.get('/ui/');
    expect(index.status).toBe(200);
    const asset = /\/ui\/assets\/[\w-]+\.css/.exec(index.text)?.[0] as string;
    expect((await service.get(asset)).status).toBe(200);
    const settings = (await service.get('/ui/settings.json')).body;
    expect(settings).toMatchObject({ auth_mode: 'enforced', stale_after_seconds: 86_400 });
    expect(typeof settings.features.alerts).toBe('boolean');
  });

  for (const [size, viewport] of WIDTHS) {
    it(`shows an accessible login page at ${size} width, and refuses a wrong password`, async () => {
      const { context, page, record } = await openPage(browser, viewport);
      record.allowFailedLoad('/token');
      await page.goto(`${service.url}/`);
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await screenshot(page, `login-${size}`);
      await page.getByLabel('Username').fill(ADMIN.username);
      await page.getByLabel('Password').fill('not-the-password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect.poll(() => page.getByRole('alert').textContent()).toBe('Incorrect username or password');
      expect(await page.evaluate<string | null>("sessionStorage.getItem('sensorhub.token')")).toBeNull();
      expect(record.errors).toEqual([]);
      expect(record.foreignRequests(service.url)).toEqual([]);
      await context.close();
    });
  }

  it('logs in, keeps the token for the session only, and logs out', async () => {
    const { context, page, record } = await openPage(browser);
    await logIn(page, ADMIN);
    expect(await page.locator('.sensor .value[data-value]').count()).toBe(3);
    expect(await page.getByText('anyone on this network').count()).toBe(0);
    const token = await page.evaluate<string | null>("sessionStorage.getItem('sensorhub.token')");
    expect(token).toBeTruthy();
    // The event stream carries the token in its query (EventSource sends no headers), and delivers.
    await expect.poll(() => record.requestsTo('/events').length).toBeGreaterThan(0);
    expect(record.requestsTo('/events').at(-1)?.searchParams.get('access_token')).toBe(token);
    expect((await service.post('/measurements', { sensor_id: 2, value: 6.66 }, { token: adminToken })).status).toBeLessThan(300);
    await expect.poll(() => page.locator('[data-sensor-id="2"] .value').getAttribute('data-value'), { timeout: LIVE_WAIT_MS }).toBe('6.66');
    expect(await page.evaluate<number>('localStorage.length')).toBeLessThanOrEqual(2);
    expect(await page.evaluate<string>('JSON.stringify(localStorage)')).not.toContain(token as string);
    // A reload in the same tab keeps the session.
    await page.reload();
    await page.locator('.overview[data-loaded]').waitFor();
    await page.goto(`${service.url}/ui/#/settings`);
    await page.locator('[data-actuator-form="1"]').waitFor();
    expect(await page.locator('[data-actuator-form="1"]').getByRole('button', { name: 'Save' }).isEnabled()).toBe(true);

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.evaluate<string | null>("sessionStorage.getItem('sensorhub.token')")).toBeNull();
    expect((await service.get('/prototypes', { token: token as string })).status).toBe(401);
    expect(record.errors).toEqual([]);
    await context.close();
  });

  it('disables every write control for a read-only token', async () => {
    const { context, page, record } = await openPage(browser);
    await logIn(page, VIEWER);
    expect(await page.getByRole('note').textContent()).toContain('read-only');
    await page.goto(`${service.url}/ui/#/settings`);
    const form = page.locator('[data-actuator-form="1"]');
    await form.waitFor();
    for (const name of ['Save', 'Enable', 'Delete']) expect(await form.getByRole('button', { name }).isDisabled(), name).toBe(true);
    expect(await form.getByLabel('Period (s)').isDisabled()).toBe(true);
    expect(await page.locator('[data-sensor-form="1"]').getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    // Nothing to create with: the forms for new sensors and actuators are not shown at all.
    expect(await page.getByRole('button', { name: 'Add sensor' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Add actuator' }).count()).toBe(0);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'settings-read-only-desktop');
    await page.goto(`${service.url}/ui/#/data`);
    await page.getByText('Advanced', { exact: true }).click();
    expect(await page.getByRole('button', { name: 'Generate' }).isDisabled()).toBe(true);
    // Reading still works: the export is a read.
    expect(await page.getByRole('button', { name: 'Download CSV' }).isEnabled()).toBe(true);
    expect(record.errors).toEqual([]);
    await context.close();
  });

  it('goes back to the login page when the service stops accepting the token', async () => {
    const { context, page, record } = await openPage(browser);
    for (const path of ['/sensors/', '/actuators/', '/measurements/', '/prototypes']) record.allowFailedLoad(path);
    await logIn(page, ADMIN);
    const token = await page.evaluate<string>("sessionStorage.getItem('sensorhub.token')");
    // Logged out elsewhere: every token issued before now stops working.
    expect((await service.post('/users/logout/', undefined, { token })).status).toBe(200);
    // The open event stream was authorised when it opened; the next read the page makes is refused.
    await page.getByRole('link', { name: 'Charts' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor({ timeout: LIVE_WAIT_MS });
    expect(await page.evaluate<string | null>("sessionStorage.getItem('sensorhub.token')")).toBeNull();
    expect(record.errors).toEqual([]);
    await context.close();
  });
});

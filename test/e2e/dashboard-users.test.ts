import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';
import { launchBrowser, openPage, PHONE, screenshot, seriousAccessibilityViolations, WIDTHS } from './browser.js';

const ADMIN = { username: 'grower', password: 'tomatoes-2026' };
const PH_SENSOR = {
  sensor_type: 'ph',
  sensor_unit: 'pH',
  threshold_critically_low: 5,
  threshold_low: 5.5,
  threshold_high: 6.5,
  threshold_critically_high: 7,
};

const sessionToken = (page: Page) => page.evaluate<string | null>("sessionStorage.getItem('sensorhub.token')");

/** Adds a user on the Users & devices page with only the permission named, and no password (a device's user). */
async function addDeviceUser(page: Page, username: string, permission: string): Promise<void> {
  const form = page.getByRole('form', { name: 'Add a user' });
  await form.getByLabel('Username').fill(username);
  await form.getByRole('checkbox', { name: 'Read' }).uncheck();
  await form.getByRole('checkbox', { name: permission }).check();
  await form.getByRole('button', { name: 'Add user' }).click();
  await page.locator(`[data-user="${username}"]`).waitFor();
}

/** Makes a device token for the user through its dialog and returns the token the dialog shows once. */
async function newDeviceToken(page: Page, username: string, name: string, size?: string): Promise<string> {
  await page.getByRole('button', { name: `New device token for ${username}` }).click();
  const dialog = page.getByRole('dialog', { name: `New device token for ${username}` });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Create token' }).click();
  const shown = dialog.locator('[data-token-once] .copy-line code');
  await shown.waitFor();
  const token = (await shown.textContent()) ?? '';
  expect(await dialog.textContent()).toContain('shown only this once');
  expect(await dialog.getByRole('button', { name: /^Copy/ }).count()).toBe(1);
  if (size) {
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, `users-token-once-${size}`, { visible: true });
  }
  await dialog.getByRole('button', { name: 'Done' }).click();
  await page.locator(`[data-user="${username}"] .token`, { hasText: name }).waitFor();
  // Gone with the dialog: the page never shows it again.
  expect(await page.content()).not.toContain(token);
  return token;
}

describe.each(storeKinds())('dashboard: a grower sets up enforced mode from an empty store (%s)', (kind) => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const [size, viewport] of WIDTHS) {
    it(`creates the first administrator, a tank, named sensors, a sensor device and a pump controller, and sees another tank's alert, at ${size} width`, async () => {
      const service = await startService(kind, { env: { AUTH_MODE: 'enforced', SEED_DEFAULTS: 'false' } });
      const { context, page, record } = await openPage(browser, viewport);
      try {
        // The first administrator: offered while the store has no user.
        await page.goto(`${service.url}/`);
        const firstAdmin = page.getByRole('form', { name: 'Create the first administrator' });
        await firstAdmin.waitFor();
        expect(await page.getByRole('button', { name: 'Sign in', exact: true }).count()).toBe(0);
        expect(await seriousAccessibilityViolations(page)).toEqual([]);
        await screenshot(page, `users-first-admin-${size}`);
        await firstAdmin.getByLabel('Username').fill(ADMIN.username);
        await firstAdmin.getByLabel('Password', { exact: true }).fill(ADMIN.password);
        await firstAdmin.getByLabel('Password again').fill('tomatoes-2025');
        await firstAdmin.getByRole('button', { name: 'Create administrator and sign in' }).click();
        await expect
          .poll(() => firstAdmin.locator('[data-field="password_again"] .field-error').textContent())
          .toBe('The two passwords differ.');
        // Too short: the service's 422, beside the field, and nothing written.
        record.allowFailedLoad('/users/new/');
        await firstAdmin.getByLabel('Password', { exact: true }).fill('short');
        await firstAdmin.getByLabel('Password again').fill('short');
        await firstAdmin.getByRole('button', { name: 'Create administrator and sign in' }).click();
        await expect
          .poll(() => firstAdmin.locator('[data-field="password"] .field-error').textContent())
          .toBe('String should have at least 8 characters');
        expect(await firstAdmin.getByLabel('Password', { exact: true }).getAttribute('aria-invalid')).toBe('true');
        expect(await seriousAccessibilityViolations(page)).toEqual([]);
        await screenshot(page, `users-first-admin-refused-${size}`);
        expect(await service.store.users.any()).toBe(false);
        await firstAdmin.getByLabel('Password', { exact: true }).fill(ADMIN.password);
        await firstAdmin.getByLabel('Password again').fill(ADMIN.password);
        await firstAdmin.getByRole('button', { name: 'Create administrator and sign in' }).click();
        await page.getByRole('heading', { name: 'Create your first tank' }).waitFor();
        expect((await service.get('/ui/settings.json')).body.needs_first_admin).toBe(false);
        const adminToken = (await sessionToken(page)) as string;
        expect((await service.get('/users', { token: adminToken })).body).toEqual([
          expect.objectContaining({ username: ADMIN.username, permissions: 31 }),
        ]);

        // Tanks: the first from the empty page, a second from the picker's New tank.
        await page.getByLabel('Tank name').fill('Lettuce, bay 1');
        await page.getByRole('button', { name: 'Create tank' }).click();
        await page.getByText('This tank has no sensor yet').waitFor();
        await page.getByRole('button', { name: 'New tank' }).click();
        const newTank = page.getByRole('dialog', { name: 'New tank' });
        await newTank.getByLabel('Tank name').fill('Seedlings');
        await newTank.getByRole('button', { name: 'Create tank' }).click();
        const picker = page.getByRole('combobox', { name: 'Tank' });
        await expect.poll(() => picker.locator('option:checked').textContent()).toBe('Seedlings');
        await picker.selectOption({ label: 'Lettuce, bay 1' });

        // Sensors with names: the pH sensor named in the Settings form, the EC one over HTTP.
        await page.goto(`${service.url}/ui/#/settings`);
        const sensorForm = page.locator('[data-sensor-form="new"]');
        await sensorForm.getByLabel('Name').fill('Reservoir pH');
        await sensorForm.getByLabel('Type').selectOption('ph');
        await sensorForm.getByRole('button', { name: 'Add sensor' }).click();
        // Saved, it shows folded to its name on a phone.
        await page.locator('[data-sensor-form="1"]').waitFor({ state: 'attached' });
        expect((await service.get('/sensors/0', { token: adminToken })).body).toEqual([
          expect.objectContaining({ sensor_id: 1, sensor_name: 'Reservoir pH' }),
        ]);
        const ec = await service.post(
          '/sensors/',
          {
            sensor_type: 'ec',
            prototype_id: 0,
            sensor_unit: 'mS/cm',
            sensor_name: 'Reservoir EC',
            threshold_critically_low: 0.5,
            threshold_low: 0.8,
            threshold_high: 1.6,
            threshold_critically_high: 2.2,
          },
          { token: adminToken },
        );
        expect(ec.status).toBe(200);

        // The pump, from the Settings form: acid when the pH rises above 6.5.
        await page.reload();
        const pumpForm = page.locator('[data-actuator-form="new"]');
        await pumpForm.waitFor();
        await pumpForm.getByLabel('Name', { exact: true }).fill('Acid pump, bay 1');
        await pumpForm.getByLabel('Sensor').selectOption('1');
        await pumpForm.getByLabel('Run when').selectOption('high');
        await pumpForm.getByLabel('Condition value').fill('6.5');
        await pumpForm.getByLabel('Period (s)').fill('300');
        await pumpForm.getByLabel('Duration (s)').fill('2');
        await pumpForm.getByRole('button', { name: 'Add actuator' }).click();
        await page.locator('[data-actuator-form="1"]').waitFor({ state: 'attached' });

        // Users & devices: in the navigation of an administrator.
        await page.getByRole('link', { name: 'Users & devices' }).click();
        await page.locator('.users-page[data-loaded]').waitFor();
        expect(await page.locator('[data-user="grower"] h3').textContent()).toBe('grower you');
        expect(await page.locator('[data-user="grower"]').getByRole('checkbox', { name: 'Admin' }).isChecked()).toBe(true);
        expect(await seriousAccessibilityViolations(page)).toEqual([]);

        // The last administrator cannot be removed: the service's answer, in its words.
        record.allowFailedLoad(`/users/${ADMIN.username}`);
        const me = page.locator('[data-user="grower"]');
        await me.getByRole('button', { name: 'Delete user' }).click();
        const confirmDelete = page.getByRole('dialog', { name: 'Delete grower?' });
        expect(await confirmDelete.textContent()).toContain('This is you');
        await confirmDelete.getByRole('button', { name: 'Delete user' }).click();
        await expect
          .poll(() => me.getByRole('alert').textContent())
          .toBe('Could not delete grower: grower is the last administrator: make another user an administrator first');
        expect((await service.get('/users', { token: adminToken })).body).toHaveLength(1);

        // A sensor device: a user with post measurements alone, and its token, shown once.
        await addDeviceUser(page, 'bay1-sensors', 'Post measurements');
        expect((await service.get('/users', { token: adminToken })).body).toContainEqual(
          expect.objectContaining({ username: 'bay1-sensors', permissions: 1 }),
        );
        // A token for no days: refused by the service, said by the field, nothing made.
        record.allowFailedLoad('/users/bay1-sensors/tokens');
        await page.getByRole('button', { name: 'New device token for bay1-sensors' }).click();
        const tokenDialog = page.getByRole('dialog', { name: 'New device token for bay1-sensors' });
        await tokenDialog.getByLabel('Name').fill('pH board');
        await tokenDialog.getByLabel('Valid for (days)').fill('0');
        await tokenDialog.getByRole('button', { name: 'Create token' }).click();
        await expect
          .poll(() => tokenDialog.locator('[data-field="days"] .field-error').textContent())
          .toBe('Input should be greater than or equal to 1');
        expect((await service.get('/users/bay1-sensors/tokens', { token: adminToken })).body).toEqual([]);
        await tokenDialog.getByRole('button', { name: 'Cancel' }).click();
        const sensorToken = await newDeviceToken(page, 'bay1-sensors', 'pH board', size);
        expect(await page.locator('[data-user="bay1-sensors"] [data-last-used]').textContent()).toBe('never');
        expect(await seriousAccessibilityViolations(page)).toEqual([]);
        await screenshot(page, `users-${size}`);

        // The device posts a reading over real HTTP; the open overview shows it, under the sensor's name.
        await page.getByRole('link', { name: 'Overview' }).click();
        await page.locator('.overview[data-loaded]').waitFor();
        expect(await page.locator('[data-sensor-id="1"]').textContent()).toContain('Reservoir pH');
        expect((await service.post('/measurements', { sensor_id: 1, value: 6.1 }, { token: sensorToken })).status).toBe(200);
        await expect.poll(() => page.locator('[data-sensor-id="1"] .value').getAttribute('data-value')).toBe('6.1');
        // It may post, and nothing else.
        expect((await service.patch('/sensors', [{ sensor_id: 1, threshold_high: 9 }], { token: sensorToken })).status).toBe(403);

        // A pump controller: control alone. It polls its pump's state, and may not change a setting.
        await page.getByRole('link', { name: 'Users & devices' }).click();
        await page.locator('.users-page[data-loaded]').waitFor();
        expect(await page.locator('[data-user="bay1-sensors"] [data-last-used]').textContent()).not.toBe('never');
        await addDeviceUser(page, 'bay1-pump', 'Control');
        const pumpToken = await newDeviceToken(page, 'bay1-pump', 'pump controller');
        const state = await service.get('/actuators/1/state', { token: pumpToken });
        expect(state.status).toBe(200);
        expect(state.body).toMatchObject({ activate: false });
        expect((await service.patch('/actuators', [{ actuator_id: 1, activation_duration: 60 }], { token: pumpToken })).status).toBe(403);
        expect((await service.post('/measurements', { sensor_id: 1, value: 6 }, { token: pumpToken })).status).toBe(403);
        expect((await service.get('/actuators/0', { token: adminToken })).body).toEqual([
          expect.objectContaining({ actuator_id: 1, actuator_name: 'Acid pump, bay 1', activation_duration: 2 }),
        ]);

        // An alert on the other tank, seen from the first: the title and the Alerts tab count it.
        await page.getByRole('link', { name: 'Overview' }).click();
        await page.locator('.overview[data-loaded]').waitFor();
        const other = await service.post(
          '/sensors/',
          { ...PH_SENSOR, prototype_id: 1, sensor_name: 'Seedlings pH' },
          { token: adminToken },
        );
        expect(other.status).toBe(200);
        expect((await service.post('/measurements', { sensor_id: other.body.sensor_id, value: 8.2 }, { token: sensorToken })).status).toBe(
          200,
        );
        await expect.poll(() => page.title()).toBe('(1) sensorhub');
        expect(await page.locator('[data-active-alerts]').getAttribute('data-active-alerts')).toBe('1');
        expect(await picker.locator('option:checked').textContent()).toBe('Lettuce, bay 1');

        // Logging out ends the password session only: the devices keep posting.
        await page.getByRole('button', { name: 'Log out' }).click();
        await page.getByRole('button', { name: 'Sign in' }).waitFor();
        expect(await page.getByRole('form', { name: 'Create the first administrator' }).count()).toBe(0);
        expect(await seriousAccessibilityViolations(page)).toEqual([]);
        await screenshot(page, `users-login-${size}`);
        expect((await service.get('/prototypes', { token: adminToken })).status).toBe(401);
        expect((await service.post('/measurements', { sensor_id: 1, value: 6.2 }, { token: sensorToken })).status).toBe(200);
        expect((await service.get('/actuators/1/state', { token: pumpToken })).status).toBe(200);

        expect(record.errors).toEqual([]);
        expect(record.foreignRequests(service.url)).toEqual([]);
      } finally {
        await context.close();
        await service.close();
      }
    });
  }
});

describe('dashboard: an open tab keeps its password session (sqlite)', () => {
  let service: TestService;
  let browser: Browser;
  beforeAll(async () => {
    service = await startService('sqlite', { env: { AUTH_MODE: 'enforced' } });
    const first = await service.request('POST', '/users/new/', {
      raw: new URLSearchParams(ADMIN).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(first.status).toBe(200);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  it('refreshes its token before it expires, streams with the new one, and says so when the session is ended elsewhere', async () => {
    const { context, page, record } = await openPage(browser);
    try {
      // The page's clock is the test's: its refresh timer is reached without waiting an hour.
      await page.clock.install();
      await page.goto(`${service.url}/`);
      expect(await page.getByRole('form', { name: 'Create the first administrator' }).count()).toBe(0);
      await page.getByLabel('Username').fill(ADMIN.username);
      await page.getByLabel('Password').fill(ADMIN.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.locator('.overview[data-loaded]').waitFor();
      const first = (await sessionToken(page)) as string;
      await expect.poll(() => record.requestsTo('/events').at(-1)?.searchParams.get('access_token')).toBe(first);

      // 54 minutes into the 60 of TOKEN_TTL_MINUTES: not yet.
      await page.clock.fastForward('54:00');
      expect(record.requestsTo('/token/refresh')).toEqual([]);
      // Past 55 minutes (five before the end), with the service's clock there too: a new token.
      const start = Date.now();
      service.clock.now = start + 55 * 60_000 + 30_000;
      await page.clock.fastForward('01:30');
      await expect.poll(() => sessionToken(page)).not.toBe(first);
      expect(record.requestsTo('/token/refresh')).toHaveLength(1);
      const second = (await sessionToken(page)) as string;
      // The event stream is opened again with it (the service ends a stream when its token expires).
      await expect.poll(() => record.requestsTo('/events').at(-1)?.searchParams.get('access_token')).toBe(second);

      // An hour and five minutes on: the first token has expired, the refreshed one still works.
      service.clock.now = start + 65 * 60_000;
      expect((await service.get('/prototypes', { token: first })).status).toBe(401);
      expect((await service.get('/prototypes', { token: second })).status).toBe(200);
      expect(record.errors).toEqual([]);

      // Logged out from another browser: the page goes back to the login form and says why.
      for (const path of ['/events', '/token/refresh', '/prototypes', '/sensors/', '/actuators/', '/measurements/', '/alerts']) {
        record.allowFailedLoad(path);
      }
      expect((await service.post('/users/logout/', undefined, { token: second })).status).toBe(200);
      await page.clock.fastForward('01:00:00');
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      expect(await page.locator('.signed-out').textContent()).toContain('You were signed out');
      expect(await sessionToken(page)).toBeNull();
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'users-signed-out-desktop');
      expect(record.errors).toEqual([]);
    } finally {
      service.clock.now = undefined;
      await context.close();
    }
  });
});

describe('dashboard: who manages users and devices (sqlite)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('offers Users & devices to administrators only; anyone else reads why, and nothing is asked of the service', async () => {
    const service = await startService('sqlite', { env: { AUTH_MODE: 'enforced' } });
    const { context, page, record } = await openPage(browser);
    try {
      const first = await service.request('POST', '/users/new/', {
        raw: new URLSearchParams(ADMIN).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      const viewer = { username: 'visitor', password: 'looking-only' };
      expect((await service.post('/users', { ...viewer, permissions: ['read'] }, { token: first.body.access_token })).status).toBe(200);
      await page.goto(`${service.url}/`);
      await page.getByLabel('Username').fill(viewer.username);
      await page.getByLabel('Password').fill(viewer.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.locator('.overview[data-loaded]').waitFor();
      expect(await page.getByRole('link', { name: 'Users & devices' }).count()).toBe(0);
      await page.goto(`${service.url}/ui/#/users`);
      await page.getByText('Managing users and devices needs the admin permission').waitFor();
      expect(record.requestsTo('/users')).toEqual([]);
      expect(record.errors).toEqual([]);
    } finally {
      await context.close();
      await service.close();
    }
  });

  it('offers the first administrator to two browsers; the second to ask is sent to sign in', async () => {
    const service = await startService('sqlite', { env: { AUTH_MODE: 'enforced' } });
    const one = await openPage(browser);
    const other = await openPage(browser, PHONE);
    try {
      for (const { page } of [one, other]) {
        await page.goto(`${service.url}/`);
        await page.getByRole('form', { name: 'Create the first administrator' }).waitFor();
      }
      const fill = async (page: Page, who: { username: string; password: string }) => {
        const form = page.getByRole('form', { name: 'Create the first administrator' });
        await form.getByLabel('Username').fill(who.username);
        await form.getByLabel('Password', { exact: true }).fill(who.password);
        await form.getByLabel('Password again').fill(who.password);
        await form.getByRole('button', { name: 'Create administrator and sign in' }).click();
      };
      await fill(one.page, ADMIN);
      await one.page.locator('.overview[data-loaded]').waitFor();
      other.record.allowFailedLoad('/users/new/');
      await fill(other.page, { username: 'late', password: 'also-a-grower' });
      await other.page.getByText('An administrator was created meanwhile, from another browser: sign in.').waitFor();
      expect(await other.page.getByRole('button', { name: 'Sign in', exact: true }).count()).toBe(1);
      expect((await service.store.users.get('late')) ?? null).toBeNull();
      expect([...one.record.errors, ...other.record.errors]).toEqual([]);
    } finally {
      await one.context.close();
      await other.context.close();
      await service.close();
    }
  });

  it('an administrator who gives up admin (another remains) sees at once what is left', async () => {
    const service = await startService('sqlite', { env: { AUTH_MODE: 'enforced' } });
    const { context, page, record } = await openPage(browser);
    try {
      const first = await service.request('POST', '/users/new/', {
        raw: new URLSearchParams(ADMIN).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      const partner = { username: 'partner', password: 'basil-and-more', permissions: ['read', 'modify', 'admin'] };
      expect((await service.post('/users', partner, { token: first.body.access_token })).status).toBe(200);
      await page.goto(`${service.url}/ui/#/users`);
      await page.getByLabel('Username').fill(ADMIN.username);
      await page.getByLabel('Password').fill(ADMIN.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.locator('.users-page[data-loaded]').waitFor();
      const mine = page.getByRole('form', { name: 'Permissions of grower' });
      await mine.getByRole('checkbox', { name: 'Admin' }).uncheck();
      await mine.getByRole('button', { name: 'Save permissions' }).click();
      await page.getByText('Managing users and devices needs the admin permission').waitFor();
      expect(await page.getByRole('link', { name: 'Users & devices' }).count()).toBe(0);
      expect((await service.store.users.get('grower'))?.permissions).toBe(31 - 8);
      // The session goes on with a token that says what is left: still signed in, without admin.
      const token = (await sessionToken(page)) as string;
      expect((await service.get('/prototypes', { token })).status).toBe(200);
      expect((await service.get('/users', { token })).status).toBe(403);
      expect(record.errors).toEqual([]);
    } finally {
      await context.close();
      await service.close();
    }
  });

  it('in open mode, makes no users or tokens: it says to use the command line and AUTH_MODE=enforced', async () => {
    const service = await startService('sqlite');
    const { context, page, record } = await openPage(browser);
    try {
      await page.goto(`${service.url}/ui/#/overview`);
      await page.getByRole('link', { name: 'Users & devices' }).click();
      await page.locator('.users-page[data-loaded]').waitFor();
      const note = page.getByRole('note').filter({ hasText: 'users and device tokens cannot be managed here' });
      expect(await note.count()).toBe(1);
      expect(await note.textContent()).toContain('AUTH_MODE=enforced');
      expect(await page.getByRole('form', { name: 'Add a user' }).count()).toBe(0);
      expect(await service.store.users.list()).toEqual([]);
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      expect(record.errors).toEqual([]);
    } finally {
      await context.close();
      await service.close();
    }
  });
});

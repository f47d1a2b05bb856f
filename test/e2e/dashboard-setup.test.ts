import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';
import { launchBrowser, openPage, screenshot, seriousAccessibilityViolations, WIDTHS } from './browser.js';
import { secondPrototype, seedDay } from './dashboard-data.js';

const DAY_MS = 86_400_000;

describe.each(storeKinds())('dashboard: a grower switches tanks on the charts page (%s)', (kind) => {
  let service: TestService;
  let browser: Browser;

  beforeAll(async () => {
    service = await startService(kind);
    await seedDay(service);
    await secondPrototype(service);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  for (const [size, viewport] of WIDTHS) {
    it(`draws the chosen range after switching tank, with no page error, at ${size} width`, async () => {
      const { context, page, record } = await openPage(browser, viewport);
      await page.goto(`${service.url}/ui/#/charts`);
      const chart = page.locator('.chart-card');
      await page.locator('.chart canvas').waitFor();
      const picker = page.getByRole('combobox', { name: 'Tank' });
      await picker.selectOption({ label: 'Greenhouse B' });
      await expect.poll(() => page.getByRole('checkbox', { name: 'Humidity #4' }).isChecked()).toBe(true);
      await picker.selectOption({ label: 'default_prototype' });
      await expect.poll(() => page.getByRole('checkbox', { name: 'EC #1' }).isChecked()).toBe(true);
      await page.locator('.chart canvas').waitFor();

      await page.getByRole('button', { name: '7 d' }).click();
      const drawnSpan = async () => {
        const [from, to] = ((await chart.locator('.chart').getAttribute('data-drawn')) ?? '0-0').split('-').map(Number);
        return to - from;
      };
      await expect.poll(drawnSpan).toBe(7 * DAY_MS);
      await expect.poll(() => chart.getAttribute('data-mode')).toBe('aggregate');
      // The From/To inputs follow what is drawn: seven days apart.
      const from = Date.parse(`${await page.getByLabel('From', { exact: true }).inputValue()}Z`);
      const to = Date.parse(`${await page.getByLabel('To', { exact: true }).inputValue()}Z`);
      expect(Math.round((to - from) / DAY_MS)).toBe(7);
      await screenshot(page, `setup-charts-switched-${size}`);
      expect(record.errors).toEqual([]);
      await context.close();
    });
  }
});

describe.each(storeKinds())('dashboard: a grower sets up tanks from an empty store (%s)', (kind) => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const [size, viewport] of WIDTHS) {
    it(`creates the first tank and a second, says what to do first, and deletes a tank through its cascade at ${size} width`, async () => {
      const service = await startService(kind, { env: { SEED_DEFAULTS: 'false' } });
      const { context, page, record } = await openPage(browser, viewport);
      try {
        await page.goto(`${service.url}/ui/#/overview`);
        await page.getByRole('heading', { name: 'Create your first tank' }).waitFor();
        expect(await seriousAccessibilityViolations(page)).toEqual([]);
        await screenshot(page, `setup-first-tank-${size}`);
        await page.getByLabel('Tank name').fill('Lettuce, bay 1');
        await page.getByRole('button', { name: 'Create tank' }).click();
        const picker = page.getByRole('combobox', { name: 'Tank' });
        await expect.poll(() => picker.locator('option:checked').textContent()).toBe('Lettuce, bay 1');
        await page.getByText('This tank has no sensor yet').waitFor();

        // A second tank, from the picker: the smallest free id, and shown at once.
        await page.getByRole('button', { name: 'New tank' }).click();
        const dialog = page.getByRole('dialog', { name: 'New tank' });
        await dialog.getByLabel('Tank name').fill('Basil');
        expect(await seriousAccessibilityViolations(page)).toEqual([]);
        await screenshot(page, `setup-new-tank-${size}`, { visible: true });
        await dialog.getByRole('button', { name: 'Create tank' }).click();
        await expect.poll(() => picker.locator('option:checked').textContent()).toBe('Basil');
        expect((await service.get('/prototypes')).body).toEqual([
          expect.objectContaining({ prototype_id: 0, prototype_name: 'Lettuce, bay 1' }),
          expect.objectContaining({ prototype_id: 1, prototype_name: 'Basil' }),
        ]);

        // An empty tank's settings: no empty Actuators list, a pointer to the first sensor.
        await page.goto(`${service.url}/ui/#/settings`);
        await page.getByText('A pump follows a sensor: add a sensor first.').waitFor();
        expect(await page.locator('[data-actuator-form]').count()).toBe(0);
        expect(await seriousAccessibilityViolations(page)).toEqual([]);
        await screenshot(page, `setup-empty-settings-${size}`);
        await page.getByRole('button', { name: 'Add a sensor' }).click();
        expect(await page.evaluate('document.activeElement?.closest("form")?.dataset.sensorForm')).toBe('new');

        // The tank with a sensor and a reading: the service refuses, the dialog counts, the cascade deletes.
        const sensor = await service.post('/sensors/', {
          sensor_type: 'ph',
          prototype_id: 1,
          sensor_unit: 'pH',
          threshold_critically_low: 5,
          threshold_low: 5.5,
          threshold_high: 6.5,
          threshold_critically_high: 7,
        });
        expect((await service.post('/measurements', { sensor_id: sensor.body.sensor_id, value: 6.1 })).status).toBe(200);
        record.allowFailedLoad('/prototypes/1');
        await page.reload();
        await page.locator('[data-tank-form="1"]').waitFor();
        await page.getByRole('button', { name: 'Delete tank' }).click();
        await page.getByRole('dialog', { name: 'Delete Basil?' }).getByRole('button', { name: 'Delete' }).click();
        const cascade = page.getByRole('dialog', { name: 'Basil still has sensors and data' });
        await expect.poll(() => cascade.locator('.dependents').textContent()).toBe('It still has 1 sensor and 1 measurement.');
        await screenshot(page, `setup-delete-tank-${size}`, { visible: true });
        await cascade.getByRole('button', { name: 'Delete all of it' }).click();
        await expect.poll(() => picker.locator('option:checked').textContent()).toBe('Lettuce, bay 1');
        expect((await service.get('/prototypes')).body).toHaveLength(1);
        expect((await service.get(`/measurements/${sensor.body.sensor_id}`)).status).toBe(404);
        expect(record.errors.filter((e) => !e.includes('409'))).toEqual([]);
      } finally {
        await context.close();
        await service.close();
      }
    });
  }
});

describe.each(storeKinds())('dashboard: a grower connects a sensor and sees alerts of every tank (%s)', (kind) => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const [size, viewport] of WIDTHS) {
    it(`adds a sensor from its preset, posts the Connect panel's curl body, and counts another tank's alert at ${size} width`, async () => {
      const service = await startService(kind, { env: { SEED_DEFAULTS: 'false' } });
      const { context, page, record } = await openPage(browser, viewport);
      try {
        await page.goto(`${service.url}/ui/#/overview`);
        await page.getByLabel('Tank name').fill('Lettuce, bay 1');
        await page.getByRole('button', { name: 'Create tank' }).click();
        await page.getByText('This tank has no sensor yet').waitFor();

        // A pH sensor: the unit and the suggested thresholds are filled in; the grower accepts them.
        await page.goto(`${service.url}/ui/#/settings`);
        const form = page.locator('[data-sensor-form="new"]');
        await form.getByLabel('Type').selectOption('temperature');
        await form.getByLabel('Type').selectOption('ph');
        expect(await form.getByLabel('Unit').inputValue()).toBe('pH');
        expect(await form.getByLabel('Low', { exact: true }).inputValue()).toBe('5.5');
        expect(await form.getByLabel('Critically high').inputValue()).toBe('7');
        await form.getByLabel('Type').selectOption('ec');
        await form.getByLabel('Crop').selectOption({ label: 'Tomatoes, peppers, cucumbers' });
        expect(await form.getByLabel('High', { exact: true }).inputValue()).toBe('3.5');
        await form.getByLabel('Type').selectOption('ph');
        await form.getByRole('button', { name: 'Add sensor' }).click();
        // Listed at once (folded on a phone).
        await page.locator('[data-sensor-form="1"]').waitFor({ state: 'attached' });
        expect((await service.get('/sensors/0')).body).toEqual([
          expect.objectContaining({ sensor_id: 1, sensor_type: 'ph', sensor_unit: 'pH', threshold_low: 5.5, threshold_critically_high: 7 }),
        ]);
        expect(await seriousAccessibilityViolations(page)).toEqual([]);
        await screenshot(page, `setup-sensor-added-${size}`);

        // The Connect panel, from the "no measurement yet" card: the curl line posts to this sensor.
        await page.goto(`${service.url}/ui/#/overview`);
        await page.getByText('No measurement yet: connect its device.').waitFor();
        await page.getByRole('button', { name: 'Connect: pH #1' }).click();
        const panel = page.getByRole('dialog', { name: 'Connect pH #1' });
        const curl = (await panel.locator('.copy-line code').first().textContent()) ?? '';
        expect(curl).toBe(`curl -X POST '${service.url}/measurements' -H 'Content-Type: application/json' -d '{"sensor_id":1,"value":6}'`);
        expect(await panel.textContent()).toContain('post_measurements');
        expect(await panel.textContent()).toContain('MQTT_URL');
        expect(await seriousAccessibilityViolations(page)).toEqual([]);
        await screenshot(page, `setup-connect-${size}`, { visible: true });
        await panel.getByRole('button', { name: 'Close' }).click();

        // The device posts that very body; the reading shows on the open page.
        const body = JSON.parse(/-d '(.*)'$/.exec(curl)?.[1] ?? 'null');
        expect((await service.post('/measurements', body)).status).toBe(200);
        await expect.poll(() => page.locator('[data-sensor-id="1"] .value').getAttribute('data-value')).toBe('6');

        // An alert raised on another tank shows in the title and on the Alerts tab.
        await service.post('/prototypes', { prototype_id: 5, prototype_name: 'Seedlings' });
        const other = await service.post('/sensors/', {
          sensor_type: 'ph',
          prototype_id: 5,
          sensor_unit: 'pH',
          threshold_critically_low: 5,
          threshold_low: 5.5,
          threshold_high: 6.5,
          threshold_critically_high: 7,
        });
        expect((await service.post('/measurements', { sensor_id: other.body.sensor_id, value: 8.2 })).status).toBe(200);
        await expect.poll(() => page.title()).toBe('(1) sensorhub');
        expect(await page.locator('[data-active-alerts]').getAttribute('data-active-alerts')).toBe('1');
        await page.getByRole('link', { name: /Alerts/ }).click();
        await page.getByText('No webhook: set ALERT_WEBHOOK_URLS').waitFor();
        expect(await seriousAccessibilityViolations(page)).toEqual([]);
        await screenshot(page, `setup-alerts-${size}`);
        expect(record.errors).toEqual([]);
      } finally {
        await context.close();
        await service.close();
      }
    });
  }
});

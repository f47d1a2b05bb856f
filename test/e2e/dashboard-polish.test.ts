import { existsSync, readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';
import { launchBrowser, openPage, PHONE, screenshot, WIDTHS } from './browser.js';
import { secondPrototype, seedDay } from './dashboard-data.js';
import { accessibilityViolations, focused, smallTapTargets, visibleIsoInstants } from './page-checks.js';

const DAY_MS = 86_400_000;
/** Settings at 390 px before its sensors and actuators folded, with this file's seed (4 sensors, 2 actuators). */
const SETTINGS_PHONE_HEIGHT_BEFORE = 11_603;
const PAGES = ['overview', 'alerts', 'charts', 'settings', 'camera', 'data'] as const;

/** The hour and minute of an instant in a time zone, as the page should write it. */
const clockIn = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(Date.parse(iso));

/** Presses a control as a keyboard user does: focus, then Enter. */
async function pressWithKeyboard(page: Page, control: ReturnType<Page['locator']>): Promise<void> {
  await control.focus();
  await page.keyboard.press('Enter');
}

describe.each(storeKinds())('dashboard polish: keyboard, phone and wording (%s)', (kind) => {
  let service: TestService;
  let browser: Browser;
  /** A named sensor with one reading, followed by a pump whose rule is "below or above". */
  let oxygen: number;

  beforeAll(async () => {
    // No PICTURE_SOURCE and no picture uploaded: no camera.
    service = await startService(kind);
    await seedDay(service);
    await secondPrototype(service);
    const created = await service.post('/sensors/', {
      sensor_type: 'oxygen',
      sensor_name: 'Tank oxygen',
      prototype_id: 0,
      sensor_unit: 'mg/L',
      threshold_critically_low: 2,
      threshold_low: 4,
      threshold_high: 9,
      threshold_critically_high: 12,
    });
    oxygen = created.body.sensor_id;
    expect((await service.post('/measurements', { sensor_id: oxygen, value: 7.2 })).status).toBe(200);
    const pump = await service.post('/actuators', {
      actuator_type: 'nutrients_A_pump',
      sensor_id: oxygen,
      condition_value: 7,
      activation_condition: 'low_or_high',
      activation_period: 60,
      activation_duration: 1,
      enabled: false,
    });
    expect(pump.status).toBe(200);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  const at = (page: string) => `${service.url}/ui/#/${page}`;

  for (const [size, viewport] of WIDTHS) {
    it(`reaches a sensor's thresholds from a section link and keeps focus on Save, at ${size} width`, async () => {
      const { context, page, record } = await openPage(browser, viewport);
      await page.goto(at('settings'));
      await page.locator('[data-sensor-form="2"]').waitFor({ state: 'attached' });
      await page.locator('[data-actuator-form="1"]').waitFor({ state: 'attached' });
      // Sensors come before the pumps that follow them.
      const order = await page.evaluate<number>(
        'document.querySelector("#sensor-settings").compareDocumentPosition(document.querySelector("#actuator-settings"))',
      );
      expect(order & 4).toBe(4);

      const height = await page.evaluate<number>('document.documentElement.scrollHeight');
      const folded = await page.locator('details.settings-item:not([open])').count();
      if (size === 'phone') {
        // Each sensor and actuator folded to its name and a line: a list to choose from.
        expect(folded).toBe(await page.locator('details.settings-item').count());
        expect(height).toBeLessThan(SETTINGS_PHONE_HEIGHT_BEFORE / 4);
        console.info(`Settings at 390 px: ${height} px high (${SETTINGS_PHONE_HEIGHT_BEFORE} px before its items folded)`);
      } else expect(folded).toBe(0);
      await screenshot(page, `polish-settings-${size}`);

      // One link, one Enter: focus lands on pH #2's thresholds, on screen; the next Tab is its first threshold.
      await pressWithKeyboard(page, page.getByRole('link', { name: 'pH #2 thresholds' }));
      expect(await focused(page)).toMatchObject({ id: 'sensor-2-thresholds', form: '2' });
      const top = await page.evaluate<number>('document.activeElement.getBoundingClientRect().top');
      // Scrolled to the top of the window (to within a fraction of a pixel).
      expect(top).toBeGreaterThan(-1);
      expect(top).toBeLessThan(viewport.height / 2);
      await page.keyboard.press('Tab');
      expect(await focused(page)).toMatchObject({ name: 'threshold_critically_low', form: '2' });
      await page.keyboard.type('0.5');

      // Save by keyboard: saved, and focus stays on Save rather than falling to the top of the page.
      const form = page.locator('[data-sensor-form="2"]');
      await pressWithKeyboard(page, form.getByRole('button', { name: 'Save' }));
      await expect.poll(() => form.getByRole('status').textContent()).toBe('Saved.');
      await expect.poll(() => focused(page)).toMatchObject({ tag: 'button', text: 'Save', form: '2' });
      const ph = (await service.get('/sensors/0')).body.find((s: { sensor_id: number }) => s.sensor_id === 2);
      expect(ph.threshold_critically_low).toBe(0.5);
      await screenshot(page, `polish-settings-saved-${size}`, { visible: true });

      // The same for an actuator, reached from its link.
      await pressWithKeyboard(page, page.getByRole('link', { name: 'Acid pump #1', exact: true }));
      expect(await focused(page)).toMatchObject({ id: 'actuator-1' });
      const pump = page.locator('[data-actuator-form="1"]');
      await pump.getByLabel('Duration (s)').fill('2.5');
      await pressWithKeyboard(page, pump.getByRole('button', { name: 'Save' }));
      await expect.poll(() => pump.getByRole('status').textContent()).toBe('Saved.');
      await expect.poll(() => focused(page)).toMatchObject({ tag: 'button', text: 'Save', form: '1' });
      expect((await service.get('/actuators/0')).body.find((a: { actuator_id: number }) => a.actuator_id === 1).activation_duration).toBe(
        2.5,
      );
      expect(record.errors).toEqual([]);
      await context.close();
    });

    it(`moves focus to "Acknowledged" after Acknowledge, and names the alert's sensor, at ${size} width`, async () => {
      // A sensor of its own per width: an acknowledged alert stays acknowledged.
      const sensorId = size === 'desktop' ? 2 : 3;
      const value = size === 'desktop' ? 8 : 35;
      expect((await service.post('/measurements', { sensor_id: sensorId, value })).status).toBe(200);
      const { context, page, record } = await openPage(browser, viewport);
      await page.goto(at('alerts'));
      await page.locator('.alerts-page[data-loaded]').waitFor();
      const name = sensorId === 2 ? 'pH #2' : 'Temperature #3';
      // The Alerts page lists every tank's alerts by default, so each button names its tank too.
      const button = page.getByRole('button', { name: `Acknowledge: default_prototype, ${name}, high` });
      await pressWithKeyboard(page, button);
      await expect.poll(() => focused(page)).toMatchObject({ tag: 'span' });
      const [alert] = (await service.get(`/alerts?state=active&sensor_id=${sensorId}`)).body;
      expect(await page.evaluate<string>('document.activeElement.closest("[data-alert-id]").dataset.alertId')).toBe(String(alert.alert_id));
      expect((await focused(page)).text).toMatch(/^Acknowledged/);
      expect(alert.acknowledged_at).not.toBeNull();
      await screenshot(page, `polish-alerts-acknowledged-${size}`);
      expect(record.errors).toEqual([]);
      await context.close();
    });

    it(`draws a lone reading, says "below or above" as the rule reads it, and names sensors, at ${size} width`, async () => {
      const { context, page, record } = await openPage(browser, viewport);
      await page.goto(at('overview'));
      await page.locator('.overview[data-loaded]').waitFor();
      const card = page.locator(`[data-sensor-id="${oxygen}"]`);
      // One reading in the last day is a reading: a dot, not "No readings in the last 24 h" beside "Last reading … ago".
      await card.locator('.sparkline[data-points="1"]').waitFor();
      expect(await card.textContent()).not.toContain('No readings');
      expect(await card.locator('.meta').textContent()).toMatch(/^Last reading \d+ (s|min) ago$/);
      expect(await card.getByRole('heading').textContent()).toBe('Tank oxygen');
      const pump = page.locator('.actuator', { hasText: 'Nutrients A pump' });
      expect(await pump.locator('.condition').textContent()).toBe('Oxygen 7.2 is above 7');
      expect(await pump.textContent()).toContain('Tank oxygen, value below or above 7');
      expect(await pump.textContent()).not.toMatch(/sensor #|not equal/i);
      await screenshot(page, `polish-overview-${size}`);
      expect(record.errors).toEqual([]);
      await context.close();
    });

    it(`shows the chart ${size === 'phone' ? 'first, above its controls, without scrolling' : 'below its controls'} at ${size} width`, async () => {
      const { context, page, record } = await openPage(browser, viewport);
      await page.goto(at('charts'));
      const canvas = page.locator('.chart canvas').first();
      await canvas.waitFor();
      const chart = (await canvas.boundingBox()) as { y: number; height: number };
      const controls = (await page.locator('.chart-controls').boundingBox()) as { y: number };
      expect(await page.evaluate<number>('window.scrollY')).toBe(0);
      if (size === 'phone') {
        expect(chart.y).toBeLessThan(controls.y);
        expect(chart.y + chart.height).toBeLessThanOrEqual(viewport.height);
      } else expect(controls.y).toBeLessThan(chart.y);
      await screenshot(page, `polish-charts-${size}`, { visible: true });
      expect(record.errors).toEqual([]);
      await context.close();
    });

    it(`folds the data generator under Advanced, unticked, and exports the last 7 days, at ${size} width`, async () => {
      const { context, page, record } = await openPage(browser, viewport);
      await page.goto(at('data'));
      const advanced = page.locator('details.advanced');
      await advanced.waitFor();
      expect(await advanced.getAttribute('open')).toBeNull();
      expect(await page.getByLabel("Replace this tank's measurements").isVisible()).toBe(false);
      await page.getByText('Advanced', { exact: true }).click();
      expect(await page.getByLabel("Replace this tank's measurements").isChecked()).toBe(false);
      await screenshot(page, `polish-data-${size}`);

      const clicked = Date.now();
      await page.getByRole('button', { name: 'Last 7 days' }).click();
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download CSV' }).click();
      const csv = readFileSync(await (await download).path(), 'utf8');
      const request = record.requestsTo('/measurements/export').at(-1) as URL;
      const start = request.searchParams.get('start_time') as string;
      // The From field holds minutes: 7 days before the click, the seconds dropped.
      expect(clicked - 7 * DAY_MS - Date.parse(start)).toBeGreaterThanOrEqual(0);
      expect(clicked - 7 * DAY_MS - Date.parse(start)).toBeLessThan(2 * 60_000);
      expect(request.searchParams.has('end_time')).toBe(false);
      expect(csv).toBe((await service.get(`/measurements/export?prototype_id=0&start_time=${start}`)).text);
      expect(csv.trim().split(/\r?\n/).length).toBeGreaterThan(288);
      expect(record.errors).toEqual([]);
      await context.close();
    });

    it(`names PICTURE_SOURCE with no camera, and shows why a timelapse does not start, at ${size} width`, async () => {
      const { context, page, record } = await openPage(browser, viewport);
      record.allowFailedLoad('/picture');
      record.allowFailedLoad('/timelapse/start');
      await page.goto(at('camera'));
      await expect.poll(() => page.locator('.picture [role="alert"]').textContent()).toContain('Set PICTURE_SOURCE');
      const form = page.locator('form[aria-labelledby="timelapse-start-heading"]');
      expect(await form.locator('.no-camera').textContent()).toContain('PICTURE_SOURCE');
      await pressWithKeyboard(page, form.getByRole('button', { name: 'Start timelapse' }));
      const reason = form.locator('.error[role="alert"]');
      await reason.waitFor();
      // The service's own reason, and the button keeps focus to try again once a camera is set.
      expect(await reason.textContent()).toBe(
        'Not started: no camera: set PICTURE_SOURCE (or upload a picture with PUT /picture) before starting a timelapse',
      );
      await expect.poll(() => focused(page)).toMatchObject({ tag: 'button', text: 'Start timelapse' });
      expect((await service.get('/timelapse')).body).toEqual([]);
      expect((await service.get('/timelapse/status')).body.running).toBe(false);
      expect(existsSync(service.config.timelapseDir)).toBe(false);
      await screenshot(page, `polish-camera-${size}`);
      expect(record.errors).toEqual([]);
      await context.close();
    });

    it(`is axe-core clean on every page at ${size} width${size === 'phone' ? ', with every tap target at least 44 px' : ''}`, async () => {
      const { context, page, record } = await openPage(browser, viewport);
      record.allowFailedLoad('/picture');
      for (const name of PAGES) {
        await page.goto(at(name));
        await page.getByRole('heading', { level: 1 }).waitFor();
        if (name === 'overview') await page.locator('.overview[data-loaded]').waitFor();
        if (name === 'alerts') await page.locator('.alerts-page[data-loaded]').waitFor();
        if (name === 'charts') await page.locator('.chart canvas').first().waitFor();
        if (name === 'settings') {
          await page.locator('[data-actuator-form="1"]').waitFor({ state: 'attached' });
          // With a sensor and an actuator unfolded, so their fields and checkboxes are measured too.
          await page.getByRole('link', { name: 'pH #2 thresholds' }).click();
          await page.getByRole('link', { name: 'Acid pump #1', exact: true }).click();
          await page.locator('[data-actuator-form="1"]').waitFor();
        }
        if (name === 'camera') await page.locator('.picture [role="alert"]').waitFor();
        if (name === 'data') {
          await page.getByRole('checkbox', { name: 'EC #1' }).waitFor();
          await page.getByText('Advanced', { exact: true }).click();
        }
        expect(await accessibilityViolations(page), `${name} at ${size}`).toEqual([]);
        if (size === 'phone') expect(await smallTapTargets(page), `${name} at ${size}`).toEqual([]);
        expect(await visibleIsoInstants(page), `${name} at ${size}`).toEqual([]);
      }
      expect(record.errors).toEqual([]);
      await context.close();
    });
  }

  it('writes times in the browser’s zone and says which zone, at both widths', async () => {
    const zone = 'America/New_York';
    // EC above "high" (2): an alert of its own, raised now.
    expect((await service.post('/measurements', { sensor_id: 1, value: 2.5 })).status).toBe(200);
    const activeOnEc = async () => (await service.get('/alerts?state=active&sensor_id=1')).body;
    await expect.poll(async () => (await activeOnEc()).length).toBe(1);
    const [alert] = await activeOnEc();
    for (const viewport of [PHONE, { width: 1280, height: 800 }]) {
      const context = await browser.newContext({ viewport, timezoneId: zone, locale: 'en-GB' });
      const page = await context.newPage();
      await page.goto(at('alerts'));
      const item = page.locator(`[data-alert-id="${alert.alert_id}"]`);
      await item.waitFor();
      // "Raised 3 min ago (24 Nov 2026, 16:05)": the local clock, the zone in the tooltip and at the foot of the page.
      expect(await item.locator('.meta').textContent()).toContain(clockIn(alert.raised_at, zone));
      expect(await item.locator('time').first().getAttribute('title')).toMatch(/GMT-[45]|E[SD]T/);
      expect(await page.locator('.zone-note').textContent()).toMatch(/America\/New_York, UTC−0[45]:00/);
      await page.goto(at('charts'));
      await page.locator('.chart-note').waitFor();
      expect(await page.locator('.chart-note').textContent()).toMatch(/America\/New_York, UTC−0[45]:00/);
      expect(await visibleIsoInstants(page)).toEqual([]);
      await context.close();
    }
  });
});

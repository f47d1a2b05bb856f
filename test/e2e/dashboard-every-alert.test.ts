import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { phSensorBody } from '../helpers/bodies.js';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';
import { DESKTOP, launchBrowser, openPage, screenshot, seriousAccessibilityViolations, WIDTHS } from './browser.js';

const SECOND = 1000;
const LIVE_WAIT_MS = 10_000;
/** The tank whose probe sticks; the default tank (0) is the "other" one. */
const TANK = 5;
const TANK_NAME = 'Lettuce NFT';

/** Stands in for the browser's Notification: records what would have been shown. */
const NOTIFICATION_RECORDER = `
  window.__notifications = [];
  window.Notification = class {
    static permission = 'granted';
    static requestPermission() { return Promise.resolve('granted'); }
    constructor(title, options) { window.__notifications.push({ title, body: options && options.body }); }
  };
`;

interface Alert {
  alert_id: number;
  actuator_id: number | null;
  kind: string;
  severity: string;
}

/** The element's whole box lies within the first screen (no scrolling). */
async function onFirstScreen(page: Page, selector: string): Promise<boolean> {
  const box = await page.locator(selector).first().boundingBox();
  const height = page.viewportSize()?.height ?? 0;
  return box !== null && box.y >= 0 && box.y + box.height <= height;
}

describe.each(storeKinds())('every alert, on every page, naming its tank (%s)', (kind) => {
  let service: TestService;
  let browser: Browser;
  let sensorId: number;
  let pumpId: number;
  /** The instant of the last stuck reading: the one that locks the pump out is taken after it. */
  let at: number;

  const read = async (value: number, when: number) => {
    service.clock.now = when;
    expect((await service.post('/measurements', { sensor_id: sensorId, value, timestamp: new Date(when).toISOString() })).status).toBe(200);
    await service.app.alertsSettled();
  };
  const ran = async (when: number) => {
    service.clock.now = when;
    expect((await service.patch(`/actuators/${pumpId}/last_activated`)).status).toBe(200);
    await service.app.alertsSettled();
  };
  const lockouts = async () =>
    (await service.get<Alert[]>(`/alerts?prototype_id=${TANK}`)).body.filter((a) => a.kind === 'lockout' && a.actuator_id === pumpId);

  beforeAll(async () => {
    service = await startService(kind);
    expect((await service.post('/prototypes', { prototype_id: TANK, prototype_name: TANK_NAME })).status).toBe(200);
    const sensor = await service.post('/sensors/', { ...phSensorBody, prototype_id: TANK, threshold_high: 14, sensor_name: 'Tank pH' });
    expect(sensor.status).toBe(200);
    sensorId = sensor.body.sensor_id;
    // The default tank has an acid pump of its own with the same name: only the tank tells them apart.
    const pump = { actuator_type: 'acid_pump', actuator_name: 'Acid pump', condition_value: 6.5, activation_condition: 'high' };
    // An explicit threshold (min_response 0): each dose is judged on the one reading after it, as
    // this stuck probe gives; automatic judging would wait for 3 readings after every dose.
    const settings = { activation_period: 60, activation_duration: 3, response_delay: 10, lockout_after: 3, min_response: 0 };
    const created = await service.post('/actuators', { ...pump, ...settings, sensor_id: sensorId });
    expect(created.status).toBe(200);
    pumpId = created.body.actuator_id;
    expect((await service.post('/actuators', { ...pump, ...settings, sensor_id: 2 })).status).toBe(200);
    // A stuck probe: the same 8 before and after every dose. Two doses judged unanswered, a third
    // run; its judging reading comes while the browser is open.
    at = Date.now() - 10 * 60 * SECOND;
    for (let i = 0; i < 3; i++, at += 60 * SECOND) {
      await read(8, at);
      await ran(at);
    }
    expect(await lockouts()).toEqual([]);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  it('notifies the lockout naming the tank and the pump, on another tank’s page', async () => {
    const { context, page, record } = await openPage(browser, DESKTOP);
    await context.grantPermissions(['notifications'], { origin: service.url });
    await page.addInitScript(NOTIFICATION_RECORDER);
    // Before the lockout, the card of the pump whose doses move nothing says so.
    await page.goto(`${service.url}/ui/#/overview`);
    await page.locator('.overview[data-loaded]').waitFor();
    await page.locator('.picker select').selectOption({ label: TANK_NAME });
    const warning = page.locator(`[data-actuator-id="${pumpId}"] .unanswered`);
    await expect.poll(() => warning.textContent()).toContain('2 of 3 doses in a row did not move pH: at 3 it locks out');
    await page.locator('.picker select').selectOption({ label: 'default_prototype' });
    const stream = page.waitForResponse((response) => new URL(response.url()).pathname === '/events');
    await page.goto(`${service.url}/ui/#/charts`);
    await stream;
    await page.locator('.page-title').waitFor();

    await read(8, at + 10 * SECOND);
    service.clock.now = undefined;
    expect(await lockouts()).toHaveLength(1);
    const banner = page.getByRole('complementary', { name: 'Critical alerts' });
    await banner.waitFor({ timeout: LIVE_WAIT_MS });
    await expect.poll(() => banner.textContent(), { timeout: LIVE_WAIT_MS }).toContain(`${TANK_NAME} · Acid pump: lockout`);
    const notifications = () => page.evaluate<{ title: string; body: string }[]>('window.__notifications');
    await expect
      .poll(notifications, { timeout: LIVE_WAIT_MS })
      .toEqual([{ title: `Critical: ${TANK_NAME}: Acid pump, lockout`, body: `${TANK_NAME}: Acid pump — lockout` }]);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    expect(record.errors).toEqual([]);
    await context.close();
  });

  for (const [size, viewport] of WIDTHS) {
    it(`shows the lockout on the first screen of its tank's overview and of another tank's pages at ${size} width`, async () => {
      const { context, page, record } = await openPage(browser, viewport);
      // Another tank's overview: the banner names the tank, above everything else.
      await page.goto(`${service.url}/ui/#/overview`);
      await page.locator('.overview[data-loaded]').waitFor();
      expect(await page.locator('.page-title').textContent()).toContain('default_prototype');
      const banner = page.getByRole('complementary', { name: 'Critical alerts' });
      await banner.waitFor();
      expect(await banner.textContent()).toContain(`${TANK_NAME} · Acid pump: lockout`);
      expect(await onFirstScreen(page, '.critical-alerts li')).toBe(true);
      await screenshot(page, `every-alert-other-tank-${size}`, { visible: true });

      // The journal of that other tank: still there.
      await page.goto(`${service.url}/ui/#/journal`);
      await banner.waitFor();
      expect(await onFirstScreen(page, '.critical-alerts li')).toBe(true);

      // "Show" goes to the locked tank's overview, whose own list has the lockout first.
      await banner.getByRole('button', { name: /^Show/ }).first().click();
      await page.locator('.overview[data-loaded]').waitFor();
      await expect.poll(() => page.locator('.page-title').textContent()).toContain(TANK_NAME);
      const first = page.locator('.overview .alerts .alert').first();
      await expect.poll(() => first.getByRole('heading').textContent()).toBe('Acid pump: lockout');
      expect(await onFirstScreen(page, '.overview .alerts .alert')).toBe(true);
      // Listed once: the banner leaves out the alerts of the tank whose overview lists them.
      expect(await page.locator('.critical-alerts').count()).toBe(0);
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot(page, `every-alert-overview-${size}`, { visible: true });

      // The Alerts page lists every tank's alerts by default, each naming its tank.
      await page.goto(`${service.url}/ui/#/alerts`);
      await page.locator('.alerts-page[data-loaded]').waitFor();
      const every = (await service.get<Alert[]>('/alerts?state=active')).body;
      await expect.poll(() => page.locator('.alerts .alert').count()).toBe(every.length);
      const lockout = every.find((a) => a.kind === 'lockout') as Alert;
      expect(await page.locator(`[data-alert-id="${lockout.alert_id}"] h3`).textContent()).toBe(`${TANK_NAME} · Acid pump: lockout`);
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await screenshot(page, `every-alert-alerts-${size}`);
      expect(record.errors).toEqual([]);
      expect(record.foreignRequests(service.url)).toEqual([]);
      await context.close();
    });
  }
});

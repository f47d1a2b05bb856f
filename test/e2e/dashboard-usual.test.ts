/**
 * The pump card's usual dosing and expected effect in a real browser: a pump with four days of
 * answered doses shows its usual amount against the last window, and what a dose should move the
 * reading by against what the last judged one did.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { phSensorBody } from '../helpers/bodies.js';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';
import { launchBrowser, openPage, screenshot, seriousAccessibilityViolations, WIDTHS } from './browser.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const iso = (ms: number) => new Date(ms).toISOString();
const card = (page: Page, id: number) => page.locator(`[data-actuator-id="${id}"]`);

describe.each(storeKinds())('pump card: usual amount and expected effect in a real browser (%s)', (kind) => {
  let service: TestService;
  let browser: Browser;
  let pump: number;

  beforeAll(async () => {
    // The service's clock starts four days back and follows the doses; the page reads it at the end.
    const start = Date.now() - 4 * 24 * HOUR - HOUR;
    service = await startService(kind, { now: start });
    const sensor = await service.post('/sensors/', { ...phSensorBody, threshold_critically_low: 4 });
    expect(sensor.status).toBe(200);
    const created = await service.post('/actuators', {
      actuator_type: 'acid_pump',
      actuator_name: 'Acid pump',
      sensor_id: sensor.body.sensor_id,
      condition_value: 6.5,
      activation_condition: 'high',
      activation_period: 180,
      activation_duration: 2,
      response_delay: 120,
      flow_ml_per_s: 0.5,
    });
    expect(created.status).toBe(200);
    pump = created.body.actuator_id as number;
    // Small fixed wobble: the probe's noise is measured, and each dose's move (0.2 pH) stands above it.
    const wobble = [0.004, -0.003, 0.002, -0.004, 0.003, -0.002];
    let n = 0;
    const read = async (at: number, value: number) => {
      service.clock.now = at;
      const sent = Math.round((value + wobble[n++ % wobble.length]) * 1000) / 1000;
      expect((await service.post('/measurements', { sensor_id: sensor.body.sensor_id, value: sent, timestamp: iso(at) })).status).toBe(200);
      await service.app.alertsSettled();
    };
    const dose = async (at: number) => {
      for (const m of [-2, -1, 0]) await read(at + m * MINUTE, 6.8);
      expect((await service.patch(`/actuators/${pump}/last_activated`)).status).toBe(200);
      await service.app.alertsSettled();
      for (const m of [3, 4, 5]) await read(at + m * MINUTE, 6.6);
    };
    // One 1 ml dose every 6 h for four days: 1 ml per 6 h is usual.
    for (let i = 0; i < 16; i++) await dose(start + i * 6 * HOUR);
    service.clock.now = undefined;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  it('the service has learned the usual amount and the effect', async () => {
    const totals = await service.get(`/actuators/${pump}/doses`);
    expect(totals.headers.get('usual-amount')).toBe('1');
    expect(totals.headers.get('usual-unit')).toBe('ml');
  });

  for (const [size, viewport] of WIDTHS) {
    it(`shows the usual amount against the last window and the expected effect at ${size} width`, async () => {
      const { context, page, record } = await openPage(browser, viewport);
      await page.goto(`${service.url}/ui/#/overview`);
      await page.locator('.overview[data-loaded]').waitFor();
      const usual = card(page, pump).locator('.usual');
      await usual.waitFor();
      // No dose in the last 6 h: none of the usual amount yet, far from the hold at twice it.
      expect(await usual.textContent()).toBe('Usual: 1 ml per 6 h; now 0× (holds at 2×)');
      expect(await usual.getAttribute('class')).toContain('tone-ok');
      // Each dose moved pH down by about 0.2 in 2 s of run: that is what the next should do.
      expect(await card(page, pump).locator('.effect').textContent()).toMatch(/^Expected per dose: 0\.[12]\d pH; last seen 0\.[12]\d$/);
      // The default pump never ran: nothing learned, so neither line.
      expect(await card(page, 1).locator('.usual').count()).toBe(0);
      expect(await card(page, 1).locator('.effect').count()).toBe(0);
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot(page, `usual-card-${size}`);
      // One read of the totals per card load: the usual dosing rides on it.
      expect(record.requestsTo(`/actuators/${pump}/doses`)).toHaveLength(1);
      expect(record.errors).toEqual([]);
      await context.close();
    });
  }
});

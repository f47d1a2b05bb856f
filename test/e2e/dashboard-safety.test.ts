import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../src/auth/permissions.js';
import { type ChangeBus, changeBus } from '../../src/core/bus.js';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';
import { tokenFor } from '../helpers/tokens.js';
import { launchBrowser, openPage, screenshot, seriousAccessibilityViolations, WIDTHS } from './browser.js';
import { seedDay } from './dashboard-data.js';

const LOCK_REASON = '20 doses in a row did not move the reading';
const MINUTE = 60_000;

interface Actuator {
  actuator_id: number;
  lockout: { since: string; reason: string } | null;
  max_doses_per_hour: number | null;
  max_seconds_per_day: number | null;
  interlocks: { sensor_id: number; block_below: number | null; block_above: number | null }[];
}

/** A base pump on pH #2 with limits, and two doses reported by its controller. */
async function dosingPump(service: TestService): Promise<number> {
  const created = await service.post('/actuators', {
    actuator_type: 'base_pump',
    actuator_name: 'Base pump',
    sensor_id: 2,
    condition_value: 5,
    activation_condition: 'low',
    activation_period: 600,
    activation_duration: 3,
    max_doses_per_hour: 6,
    max_seconds_per_day: 120,
  });
  expect(created.status).toBe(200);
  const id = created.body.actuator_id as number;
  for (let i = 0; i < 2; i++) expect((await service.patch(`/actuators/${id}/last_activated`)).status).toBe(200);
  return id;
}

/** A nutrient pump the service locked out: set in the store as the judging of doses does. */
async function lockedPump(service: TestService): Promise<number> {
  const created = await service.post('/actuators', {
    actuator_type: 'nutrients_A_pump',
    actuator_name: 'Nutrients A',
    sensor_id: 1,
    condition_value: 1,
    activation_condition: 'low',
    activation_period: 300,
    activation_duration: 2,
  });
  expect(created.status).toBe(200);
  return created.body.actuator_id as number;
}

/**
 * Locks a pump out as the judging of doses does: in the store, then an `actuator` change on the
 * service's bus, which the decision (kept in memory) and the live events follow.
 */
async function lockOut(service: TestService, bus: ChangeBus, id: number, since: number): Promise<void> {
  const locked = await service.store.actuators.lockOut(id, since, LOCK_REASON);
  expect(locked).toBeDefined();
  bus.publish('actuator', { action: 'updated', actuator: locked! });
}

const card = (page: Page, id: number) => page.locator(`[data-actuator-id="${id}"]`);

describe.each(storeKinds())('dashboard dosing safety in a real browser (%s)', (kind) => {
  let service: TestService;
  const bus = changeBus();
  let browser: Browser;
  let pump: number;
  let locked: number;

  const actuator = async (id: number) => (await service.get<Actuator[]>('/actuators/0')).body.find((a) => a.actuator_id === id) as Actuator;
  const pausedUntil = async () => (await service.get<{ paused_until: string | null }>('/prototypes/0')).body.paused_until;

  beforeAll(async () => {
    service = await startService(kind, { bus });
    await seedDay(service);
    pump = await dosingPump(service);
    locked = await lockedPump(service);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  for (const [size, viewport] of WIDTHS) {
    it(`shows doses against limits, never run, value against threshold, unlocks and pauses at ${size} width`, async () => {
      await lockOut(service, bus, locked, Date.now() - 5 * MINUTE);
      const { context, page, record } = await openPage(browser, viewport);
      await page.goto(`${service.url}/ui/#/overview`);
      await page.locator('.overview[data-loaded]').waitFor();

      // The pump with limits: its two doses against 6 per hour and 120 s per day.
      expect(await card(page, pump).locator('.doses').textContent()).toContain('2 of 6 doses in the last hour');
      expect(await card(page, pump).locator('.doses small').textContent()).toBe('2 doses, 6 of 120 s of run time in the last 24 h');
      expect(await card(page, pump).locator('.condition').textContent()).toMatch(/^pH [\d.]+ is not below 5$/);
      expect(await card(page, pump).locator('.last-run').textContent()).toMatch(/s ago$/);
      // It ran just now and waits 10 minutes: the countdown says how long.
      expect(await card(page, pump).locator('.countdown').textContent()).toMatch(/^may dose in \d+ min \d\d s$/);
      // The default pump has never run and says so, and no controller has polled it.
      expect(await card(page, 1).locator('.last-run').textContent()).toBe('never run');
      expect(await card(page, 1).locator('.poll').textContent()).toBe('no controller has polled yet');
      expect(await card(page, 1).locator('.doses').textContent()).toContain('0 doses in the last hour (no limit)');

      // The locked-out pump: since when and why, and Unlock after a confirmation.
      const lockout = card(page, locked).locator('.lockout');
      expect(await lockout.textContent()).toContain(LOCK_REASON);
      expect(await card(page, locked).locator('.badge').textContent()).toBe('locked out');
      expect(await card(page, locked).locator('.decision').textContent()).toMatch(/^Locked out/);
      expect(await card(page, locked).locator('.countdown').textContent()).toBe('not until unlocked');
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot(page, `safety-overview-${size}`);
      await card(page, locked).getByRole('button', { name: 'Unlock' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      await screenshot(page, `safety-unlock-${size}`, { visible: true });
      await dialog.getByRole('button', { name: 'Unlock' }).click();
      await lockout.waitFor({ state: 'detached' });
      expect((await actuator(locked)).lockout).toBeNull();

      // Pause from the overview: the time left, read back from the API, then resume.
      const control = page.locator('.pause-control');
      expect(await control.getAttribute('data-paused')).toBe('false');
      const before = Date.now();
      await page.getByRole('button', { name: 'Pause 15 min' }).click();
      await page.locator('.pause-control[data-paused="true"]').waitFor();
      const until = Date.parse((await pausedUntil()) as string);
      expect(until).toBeGreaterThanOrEqual(before + 15 * MINUTE - 1000);
      expect(until).toBeLessThanOrEqual(Date.now() + 15 * MINUTE + 1000);
      expect(await control.locator('.pause-left').textContent()).toMatch(/^1[45] min \d\d s$/);
      // Every enabled pump of the prototype says it is paused (the seeded one is disabled, which comes first).
      await expect.poll(() => card(page, pump).locator('.badge').textContent()).toBe('paused');
      for (const id of [pump, locked]) {
        await expect.poll(() => card(page, id).locator('.countdown').textContent()).toBe('not while dosing is paused');
      }
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await screenshot(page, `safety-paused-${size}`);
      await page.getByRole('button', { name: 'Resume' }).click();
      await page.locator('.pause-control[data-paused="false"]').waitFor();
      expect(await pausedUntil()).toBeNull();

      // A custom length, then resumed for the next test.
      await page.getByLabel('Minutes').fill('90');
      await page.getByRole('button', { name: 'Pause', exact: true }).click();
      await page.locator('.pause-control[data-paused="true"]').waitFor();
      expect(Date.parse((await pausedUntil()) as string)).toBeGreaterThan(Date.now() + 80 * MINUTE);
      await page.getByRole('button', { name: 'Resume' }).click();
      await page.locator('.pause-control[data-paused="false"]').waitFor();
      expect(await pausedUntil()).toBeNull();
      expect(record.errors).toEqual([]);
      expect(record.foreignRequests(service.url)).toEqual([]);
      await context.close();
    });

    it(`edits limits, an interlock and a sensor's valid range in Settings, and shows a 422 under its field at ${size} width`, async () => {
      const { context, page, record } = await openPage(browser, viewport);
      // The refusals this test provokes on purpose.
      record.allowFailedLoad('/actuators');
      record.allowFailedLoad('/sensors');
      const phBefore = (await service.get('/sensors/0')).body.find((s: { sensor_id: number }) => s.sensor_id === 2);
      await page.goto(`${service.url}/ui/#/settings`);
      const form = page.locator(`[data-actuator-form="${pump}"]`);
      // Unfolded (a phone starts with every actuator and sensor folded) from the section links.
      await page.getByRole('link', { name: 'Base pump', exact: true }).click();
      await page.getByRole('link', { name: 'pH #2 thresholds' }).click();
      await form.waitFor();
      await form.getByLabel('Max doses per hour').fill('4');
      await form.getByLabel('Max run time per day (s)').fill('90');
      await form.getByLabel('Lock out after').fill('');
      if ((await form.locator('[data-interlock]').count()) === 0) await form.getByRole('button', { name: 'Add interlock' }).click();
      // The picker offers the prototype's sensors by name and id.
      const choice = form.getByLabel('Interlock 1: sensor');
      expect(await choice.locator('option').allTextContents()).toEqual(['EC #1 (mS/cm)', 'pH #2 (pH)', 'Temperature #3 (Celsius)']);
      await choice.selectOption({ label: 'Temperature #3 (Celsius)' });
      await form.getByLabel('Block below').fill('15');
      await form.getByLabel('Block above').fill('35');
      await form.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => form.getByRole('status').textContent()).toBe('Saved.');
      const saved = await actuator(pump);
      expect(saved).toMatchObject({ max_doses_per_hour: 4, max_seconds_per_day: 90, lockout_after: null });
      expect(saved.interlocks).toEqual([{ sensor_id: 3, block_below: 15, block_above: 35 }]);
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
      expect(overflow).toBeLessThanOrEqual(0);
      await form.screenshot({ path: `test-results/screenshots/safety-settings-${size}.png` });

      // 0 doses per hour is refused: the message under its field, nothing saved.
      await form.getByLabel('Max doses per hour').fill('0');
      await form.getByLabel('Block above').fill('40');
      await form.getByRole('button', { name: 'Save' }).click();
      const error = form.locator('[data-field="max_doses_per_hour"] .field-error');
      await error.waitFor();
      expect(await error.textContent()).toMatch(/1/);
      expect(await actuator(pump)).toEqual(saved);
      await form.getByLabel('Max doses per hour').fill('6');
      await form.getByLabel('Block above').fill('35');
      await form.getByLabel('Lock out after').fill('20');
      await form.getByRole('button', { name: 'Save' }).click();
      await expect.poll(async () => (await actuator(pump)).max_doses_per_hour).toBe(6);

      // A sensor's valid range: valid_min above valid_max is refused under valid_min, then a valid one saved.
      const ph = page.locator('[data-sensor-form="2"]');
      await ph.getByLabel('Valid from').fill('9');
      await ph.getByLabel('Valid up to').fill('3');
      await ph.getByRole('button', { name: 'Save' }).click();
      await ph.locator('[data-field="valid_min"] .field-error').waitFor();
      expect((await service.get('/sensors/0')).body.find((s: { sensor_id: number }) => s.sensor_id === 2)).toEqual(phBefore);
      await ph.getByLabel('Valid from').fill('1');
      await ph.getByLabel('Valid up to').fill('13');
      await ph.getByLabel('Stuck after (s)').fill('3600');
      await ph.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => ph.getByRole('status').textContent()).toBe('Saved.');
      expect((await service.get('/sensors/0')).body.find((s: { sensor_id: number }) => s.sensor_id === 2)).toMatchObject({
        valid_min: 1,
        valid_max: 13,
        stale_after: null,
        stuck_after: 3600,
      });
      await ph.screenshot({ path: `test-results/screenshots/safety-sensor-settings-${size}.png` });
      expect(record.errors).toEqual([]);
      // As they were, for the next width.
      const reset = await service.patch('/actuators', [{ actuator_id: pump, max_seconds_per_day: 120, interlocks: [] }]);
      expect(reset.status).toBe(200);
      const sensorReset = await service.patch('/sensors', [{ sensor_id: 2, valid_min: null, valid_max: null, stuck_after: null }]);
      expect(sensorReset.status).toBe(200);
      await context.close();
    });

    it(`marks the doses as ticks on their sensor's chart at ${size} width`, async () => {
      const { context, page, record } = await openPage(browser, viewport);
      await page.goto(`${service.url}/ui/#/charts`);
      await page.locator('.chart canvas').waitFor();
      await page.getByRole('checkbox', { name: 'EC #1' }).uncheck();
      await page.getByRole('checkbox', { name: 'pH #2' }).check();
      const chart = page.locator('.chart');
      const doses = (await service.get(`/actuators/${pump}/activations`)).body.length;
      expect(doses).toBeGreaterThanOrEqual(2);
      await expect.poll(() => chart.getAttribute('data-dose-ticks')).toBe(String(doses));
      expect(record.requestsTo(`/actuators/${pump}/activations`).at(-1)?.searchParams.get('start_time')).not.toBeNull();
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await screenshot(page, `safety-chart-${size}`);
      expect(record.errors).toEqual([]);
      await context.close();
    });
  }

  it('disables Unlock and the pause without the modify permission (enforced mode)', async () => {
    const enforcedBus = changeBus();
    const enforced = await startService(kind, { env: { AUTH_MODE: 'enforced' }, bus: enforcedBus });
    try {
      const admin = await tokenFor(enforced.store, 'grower', PERMISSIONS.read | PERMISSIONS.modify | PERMISSIONS.admin);
      const viewer = await tokenFor(enforced.store, 'visitor', PERMISSIONS.read);
      const id = (
        await enforced.post(
          '/actuators',
          {
            actuator_type: 'acid_pump',
            sensor_id: 1,
            condition_value: 1,
            activation_condition: 'high',
            activation_period: 60,
            activation_duration: 1,
          },
          { token: admin },
        )
      ).body.actuator_id as number;
      await lockOut(enforced, enforcedBus, id, Date.now());
      const { context, page, record } = await openPage(browser);
      await page.addInitScript(`sessionStorage.setItem('sensorhub.token', ${JSON.stringify(viewer)})`);
      await page.goto(`${enforced.url}/ui/#/overview`);
      await page.locator('.overview[data-loaded]').waitFor();
      expect(await card(page, id).getByRole('button', { name: 'Unlock' }).isDisabled()).toBe(true);
      expect(await page.getByRole('button', { name: 'Pause 15 min' }).isDisabled()).toBe(true);
      expect(record.errors).toEqual([]);
      await context.close();
    } finally {
      await enforced.close();
    }
  });
});

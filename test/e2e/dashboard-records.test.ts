import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';
import { launchBrowser, openPage, screenshot, WIDTHS } from './browser.js';
import { accessibilityViolations, smallTapTargets, visibleIsoInstants } from './page-checks.js';
import { seedDay } from './dashboard-data.js';

/** The flow of the acid pump: each 3 s dose is 6 ml. */
const FLOW = 2;
const DOSE_ML = 6;
const PH_SENSOR = 2;

interface Note {
  note_id: number;
  text: string;
  tags: string[];
}
interface Actuator {
  actuator_id: number;
  stock_ml: number | null;
  max_ml_per_day: number | null;
}
interface Sensor {
  sensor_id: number;
  calibration_interval: number | null;
  calibrated_at: string | null;
  calibration_due: string | null;
}

/** An acid pump on pH #2 whose volumes and bottle are tracked: 500 ml in it, low at 100 ml. */
async function trackedPump(service: TestService): Promise<number> {
  const created = await service.post('/actuators', {
    actuator_type: 'acid_pump',
    actuator_name: 'Acid pump',
    sensor_id: PH_SENSOR,
    condition_value: 6.5,
    activation_condition: 'high',
    activation_period: 60,
    activation_duration: 3,
    flow_ml_per_s: FLOW,
    stock_low_ml: 100,
  });
  expect(created.status).toBe(200);
  const id = created.body.actuator_id as number;
  expect((await service.post(`/actuators/${id}/refill`, { stock_ml: 500 })).status).toBe(200);
  return id;
}

const card = (page: Page, id: number) => page.locator(`[data-actuator-id="${id}"]`);
const sensorCard = (page: Page, id: number) => page.locator(`[data-sensor-id="${id}"]`);
const noOverflow = (page: Page) => page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');

/** What every page of the records must be at each width: axe-core clean, no ISO instant shown, no overflow, and on a phone every tap target 44 px. */
async function checkPage(page: Page, size: string, what: string): Promise<void> {
  expect(await accessibilityViolations(page), what).toEqual([]);
  expect(await visibleIsoInstants(page), what).toEqual([]);
  expect(await noOverflow(page), what).toBeLessThanOrEqual(0);
  if (size === 'phone') expect(await smallTapTargets(page), what).toEqual([]);
}

describe.each(storeKinds())('dashboard records in a real browser (%s)', (kind) => {
  let service: TestService;
  let browser: Browser;
  let pump: number;

  const notes = async () => (await service.get<Note[]>('/notes?prototype_id=0&limit=100')).body;
  const actuator = async () => (await service.get<Actuator[]>('/actuators/0')).body.find((a) => a.actuator_id === pump) as Actuator;
  const phSensor = async () => (await service.get<Sensor[]>('/sensors/0')).body.find((s) => s.sensor_id === PH_SENSOR) as Sensor;

  beforeAll(async () => {
    service = await startService(kind);
    await seedDay(service);
    pump = await trackedPump(service);
    expect((await service.patch('/sensors', [{ sensor_id: PH_SENSOR, calibration_interval: 30 }])).status).toBe(200);
    // A pause and its resume, for the journal to list beside the notes.
    expect((await service.post('/prototypes/0/pause', { for: 600 })).status).toBe(200);
    expect((await service.request('DELETE', '/prototypes/0/pause')).status).toBe(204);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  for (const [size, viewport] of WIDTHS) {
    it(`adds a note from the overview, then finds it in the journal and as a flag on a chart at ${size} width`, async () => {
      const { context, page, record } = await openPage(browser, viewport);
      const text = `Changed the filter (${size})`;
      await page.goto(`${service.url}/ui/#/overview`);
      await page.locator('.overview[data-loaded]').waitFor();
      await page.getByRole('button', { name: 'Add note' }).click();
      const dialog = page.getByRole('dialog', { name: /^Note on / });
      await dialog.waitFor();
      await dialog.getByLabel('Note', { exact: true }).fill(text);
      await dialog.getByLabel('Tags').fill('filter, maintenance');
      await screenshot(page, `records-add-note-${size}`, { visible: true });
      await dialog.getByRole('button', { name: 'Add note' }).click();
      await dialog.waitFor({ state: 'hidden' });
      const written = (await notes()).find((note) => note.text === text);
      expect(written?.tags).toEqual(['filter', 'maintenance']);

      // The journal: the note with its local time and tags, beside the pause and resume recorded at the start.
      await page.getByRole('link', { name: 'Journal' }).click();
      await page.locator('.journal[data-loaded]').waitFor();
      const entry = page.locator(`[data-key="note:${written?.note_id}"]`);
      await entry.waitFor();
      expect(await entry.locator('.entry-text').textContent()).toBe(text);
      expect(await entry.locator('.entry-type').textContent()).toBe('Note');
      expect(await entry.locator('time').textContent()).toMatch(/^\d\d:\d\d$/);
      expect(await page.locator('.journal-entry[data-type="resume"] .entry-text').first().textContent()).toBe('Dosing resumed');
      expect(await page.locator('.journal-entry[data-type="pause"] .entry-text').first().textContent()).toMatch(/^Dosing paused until /);
      expect(await page.locator('.journal-zone').textContent()).toMatch(/UTC/);
      await checkPage(page, size, 'journal');
      await screenshot(page, `records-journal-${size}`);

      // The CSV: the same journal as a file, the note in it.
      const download = page.waitForEvent('download');
      await page.getByRole('link', { name: 'Download the journal (CSV)' }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe('default_prototype_journal.csv');
      const csv = readFileSync((await file.path()) as string, 'utf8');
      expect(csv.split('\n')[0]).toMatch(/^type,at,id,/);
      expect(csv).toContain(text);

      // Filtered by type, then by a tag: only what fits is listed.
      const count = (selector: string) => page.locator(`.journal-entry${selector}`).count();
      const shown = async () => ({ notes: await count('[data-type="note"]'), others: await count(':not([data-type="note"])') });
      await page.getByLabel('Show', { exact: true }).selectOption({ label: 'Pauses and resumes' });
      await expect.poll(async () => (await count('[data-type="resume"]')) > 0 && (await shown()).notes === 0).toBe(true);
      await page.getByLabel('Show', { exact: true }).selectOption({ label: 'Everything' });
      await entry.waitFor();
      await entry.getByRole('button', { name: 'Show notes tagged filter' }).click();
      await expect.poll(async () => (await shown()).others === 0 && (await entry.count()) === 1).toBe(true);

      // Edit the note: the service keeps the new text, and the list shows it.
      await entry.getByRole('button', { name: 'Edit' }).click();
      await entry.getByLabel('Note', { exact: true }).fill(`${text}, and the pump tubing`);
      await entry.getByRole('button', { name: 'Save note' }).click();
      await expect.poll(() => entry.locator('.entry-text').textContent()).toBe(`${text}, and the pump tubing`);
      expect((await notes()).find((note) => note.note_id === written?.note_id)?.text).toBe(`${text}, and the pump tubing`);

      // The chart of a sensor of the tank flags the note at its time; hover and tap show its text.
      await page.getByRole('link', { name: 'Charts' }).click();
      await page.locator('.chart canvas').waitFor();
      const flag = page.locator(`.note-mark[data-note-ids~="${written?.note_id}"] .note-flag`);
      await flag.waitFor();
      expect(await flag.getAttribute('aria-label')).toContain(`${text}, and the pump tubing`);
      const tip = page.locator(`.note-mark[data-note-ids~="${written?.note_id}"] .note-tip`);
      expect(await tip.isVisible()).toBe(false);
      await flag.hover();
      await expect.poll(() => tip.isVisible()).toBe(true);
      expect(await tip.textContent()).toContain(`${text}, and the pump tubing`);
      await page.mouse.move(0, 0);
      await flag.click();
      expect(await flag.getAttribute('aria-expanded')).toBe('true');
      await expect.poll(() => tip.isVisible()).toBe(true);
      await checkPage(page, size, 'chart with a note');
      await screenshot(page, `records-chart-note-${size}`);

      // A note deleted elsewhere leaves the chart by the event stream.
      expect((await service.request('DELETE', `/notes/${written?.note_id}`)).status).toBe(204);
      await flag.waitFor({ state: 'detached' });
      expect(record.errors).toEqual([]);
      await context.close();
    });

    it(`shows the ml dosed and the bottle going down as doses are reported, and refills it at ${size} width`, async () => {
      const { context, page, record } = await openPage(browser, viewport);
      await page.goto(`${service.url}/ui/#/overview`);
      await page.locator('.overview[data-loaded]').waitFor();
      const volumes = card(page, pump).locator('.volumes');
      await volumes.locator('.volume-today').waitFor();
      const todayBefore = Number(await volumes.getAttribute('data-today-ml'));
      const stockBefore = (await actuator()).stock_ml as number;
      expect(await card(page, pump).locator('.bottle').getAttribute('data-stock-ml')).toBe(String(stockBefore));

      // The controller reports a run: 6 ml more today, 6 ml less in the bottle.
      expect((await service.patch(`/actuators/${pump}/last_activated`)).status).toBe(200);
      await expect.poll(() => card(page, pump).locator('.bottle').getAttribute('data-stock-ml')).toBe(String(stockBefore - DOSE_ML));
      await expect.poll(async () => Number(await volumes.getAttribute('data-today-ml'))).toBe(todayBefore + DOSE_ML);
      expect(await volumes.locator('.volume-today').textContent()).toBe(`${todayBefore + DOSE_ML} ml today`);
      expect(await card(page, pump).locator('.bottle-text').textContent()).toBe(`${stockBefore - DOSE_ML} ml of 500 ml`);
      expect(await card(page, pump).locator('meter').getAttribute('value')).toBe(String(stockBefore - DOSE_ML));
      await checkPage(page, size, 'overview');
      await screenshot(page, `records-overview-${size}`);

      // Refill: the dialog offers the last refill's 500 ml; 800 ml is recorded instead.
      await card(page, pump).getByRole('button', { name: 'Refill Acid pump' }).click();
      const dialog = page.getByRole('dialog', { name: 'Refill Acid pump' });
      await dialog.waitFor();
      const amount = dialog.getByLabel('The bottle now holds (ml)');
      expect(await amount.inputValue()).toBe('500');
      await screenshot(page, `records-refill-${size}`, { visible: true });
      await amount.fill('800');
      await dialog.getByRole('button', { name: 'Refill' }).click();
      await dialog.waitFor({ state: 'hidden' });
      expect((await actuator()).stock_ml).toBe(800);
      await expect.poll(() => card(page, pump).locator('.bottle-text').textContent()).toBe('800 ml of 800 ml');

      // Back to 500 for the next width.
      expect((await service.post(`/actuators/${pump}/refill`, { stock_ml: 500 })).status).toBe(200);
      expect(record.errors).toEqual([]);
      await context.close();
    });

    it(`records a calibration and shows its slope, offset, verdict and the next due date at ${size} width`, async () => {
      const { context, page, record } = await openPage(browser, viewport);
      // The refusal this test provokes on purpose.
      record.allowFailedLoad('/calibrations');
      await page.goto(`${service.url}/ui/#/overview`);
      await page.locator('.overview[data-loaded]').waitFor();
      const ph = sensorCard(page, PH_SENSOR);
      await ph.getByRole('button', { name: /^Record calibration/ }).click();
      const dialog = page.getByRole('dialog', { name: /^Calibrate / });
      await dialog.waitFor();
      // The calibration before, to compare with: none before the first width's.
      if (size === 'phone') {
        await expect
          .poll(() => dialog.locator('.calibration-previous').textContent())
          .toMatch(/^Last time \(.+\): slope 94\.\d %, offset \+0\.\d+, accepted\.$/);
      } else expect(await dialog.locator('.calibration-previous').count()).toBe(0);
      // The pH buffers 7 and 4 are filled in; the probe read 7.05 and 4.2 (slope 95 %).
      expect(await dialog.getByLabel('Buffer 1: value').inputValue()).toBe('7');
      expect(await dialog.getByLabel('Buffer 2: value').inputValue()).toBe('4');
      await dialog.getByLabel('Buffer 1: probe read').fill('7.05');
      await dialog.getByLabel('Buffer 2: probe read').fill('4.2');
      await expect.poll(() => dialog.locator('.calibration-preview').textContent()).toBe('Preview: Good: slope 95.0 %, offset +0.4');
      // A third buffer read low brings the fit below 95 %: the probe wants cleaning.
      await dialog.getByRole('button', { name: 'Add a buffer' }).click();
      expect(await dialog.getByLabel('Buffer 3: value').inputValue()).toBe('10');
      await dialog.getByLabel('Buffer 3: probe read').fill('9.85');
      await expect.poll(() => dialog.locator('.calibration-preview').textContent()).toMatch(/^Preview: Accepted, but clean the probe/);
      await checkPage(page, size, 'calibration form');
      await screenshot(page, `records-calibration-${size}`, { visible: true });
      // A calibration dated tomorrow is refused under its field, and nothing is recorded.
      const recorded = (await service.get(`/sensors/${PH_SENSOR}/calibrations`)).body.length;
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 16);
      await dialog.getByLabel('When (empty: now)').fill(tomorrow);
      await dialog.getByRole('button', { name: 'Record calibration' }).click();
      await dialog.locator('[data-field="calibrated_at"] .field-error').waitFor();
      expect((await service.get(`/sensors/${PH_SENSOR}/calibrations`)).body.length).toBe(recorded);
      await dialog.getByLabel('When (empty: now)').fill('');
      await dialog.getByRole('button', { name: 'Record calibration' }).click();

      const result = dialog.locator('.calibration-result');
      await result.waitFor();
      const [stored] = (await service.get(`/sensors/${PH_SENSOR}/calibrations`)).body as { slope: number; offset: number }[];
      expect(await result.getAttribute('data-accepted')).toBe('true');
      expect(await result.locator('.calibration-slope').textContent()).toBe(`${(Math.round(stored.slope * 1000) / 10).toFixed(1)} %`);
      expect(await result.locator('.calibration-offset').textContent()).toMatch(/^[+−]?[\d.]+$/);
      expect(await result.locator('.verdict').textContent()).toMatch(/^Accepted, but clean the probe: slope 9\d\.\d %/);
      await expect.poll(() => result.locator('.calibration-next').textContent()).toMatch(/^due in 29 d|^due in 30 d/);
      await screenshot(page, `records-calibration-result-${size}`, { visible: true });
      await dialog.getByRole('button', { name: 'Done' }).click();
      await dialog.waitFor({ state: 'hidden' });

      // The card: calibrated just now, due in 30 days, as the service says.
      const due = Date.parse((await phSensor()).calibration_due as string);
      expect(due).toBeGreaterThan(Date.now() + 29 * 86_400_000);
      await expect.poll(() => ph.locator('.calibration-last').textContent()).toBe('Calibrated just now');
      expect(await ph.locator('.calibration-due').textContent()).toMatch(/^due in (29|30) d \(/);
      expect(await ph.locator('.calibration').getAttribute('data-overdue')).toBe('false');
      expect(record.errors).toEqual([]);
      await context.close();
    });

    it(`sets volumes, the low mark and a calibration reminder in Settings, and never undoes the doses counted meanwhile, at ${size} width`, async () => {
      const { context, page, record } = await openPage(browser, viewport);
      // The refusal this test provokes on purpose.
      record.allowFailedLoad('/actuators');
      await page.goto(`${service.url}/ui/#/settings`);
      const form = page.locator(`[data-actuator-form="${pump}"]`);
      // Unfolded (a phone starts with every actuator and sensor folded) from the section links.
      await page.getByRole('link', { name: 'Acid pump', exact: true }).click();
      await page.getByRole('link', { name: 'pH #2 thresholds' }).click();
      await form.waitFor();
      expect(await form.getByLabel('Flow (ml/s)').inputValue()).toBe(String(FLOW));
      expect(await form.getByLabel('Bottle now (ml)').inputValue()).toBe('500');
      // Only a refill sets an existing pump's bottle: the form shows it and does not send it.
      expect(await form.getByLabel('Bottle now (ml)').isDisabled()).toBe(true);

      // A flow of 0 is refused under its field, and nothing is written.
      const before = await actuator();
      await form.getByLabel('Flow (ml/s)').fill('0');
      await form.getByRole('button', { name: 'Save' }).click();
      await form.locator('[data-field="flow_ml_per_s"] .field-error').waitFor();
      expect(await actuator()).toEqual(before);

      // A dose while the form is open lowers the stock; saving other fields keeps it lowered.
      expect((await service.patch(`/actuators/${pump}/last_activated`)).status).toBe(200);
      await form.getByLabel('Flow (ml/s)').fill(String(FLOW));
      await form.getByLabel('Max ml per day').fill('250');
      await form.getByLabel('Low mark (ml)').fill('120');
      await form.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => form.getByRole('status').textContent()).toBe('Saved.');
      expect(await actuator()).toMatchObject({ flow_ml_per_s: FLOW, max_ml_per_day: 250, stock_low_ml: 120, stock_ml: 500 - DOSE_ML });
      // The form now says what the bottle holds, and a second save leaves it so.
      await expect.poll(() => form.getByLabel('Bottle now (ml)').inputValue()).toBe(String(500 - DOSE_ML));
      await form.getByLabel('Max ml per day').fill('200');
      await form.getByRole('button', { name: 'Save' }).click();
      await expect.poll(async () => (await actuator()).max_ml_per_day).toBe(200);
      expect((await actuator()).stock_ml).toBe(500 - DOSE_ML);

      // The pH sensor's reminder: every 14 days.
      const ph = page.locator(`[data-sensor-form="${PH_SENSOR}"]`);
      await ph.getByLabel('Calibrate every (days)').fill('14');
      await ph.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => ph.getByRole('status').textContent()).toBe('Saved.');
      expect((await phSensor()).calibration_interval).toBe(14);
      await checkPage(page, size, 'settings');
      await form.screenshot({ path: `test-results/screenshots/records-settings-${size}.png` });
      expect(record.errors).toEqual([]);

      // As they were, for the next width.
      expect((await service.patch('/actuators', [{ actuator_id: pump, max_ml_per_day: null, stock_low_ml: 100 }])).status).toBe(200);
      expect((await service.post(`/actuators/${pump}/refill`, { stock_ml: 500 })).status).toBe(200);
      expect((await service.patch('/sensors', [{ sensor_id: PH_SENSOR, calibration_interval: 30 }])).status).toBe(200);
      await context.close();
    });
  }
});

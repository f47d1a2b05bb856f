import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { phSensorBody } from '../helpers/bodies.js';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';
import { cameraImage, DESKTOP, launchBrowser, openPage, PHONE, screenshot, WIDTHS, seriousAccessibilityViolations } from './browser.js';
import { secondPrototype, seedDay } from './dashboard-data.js';

const PAGES = ['overview', 'charts', 'settings', 'camera', 'data'] as const;
/** Generous for a loaded machine: an event reaches the page within milliseconds. */
const LIVE_WAIT_MS = 10_000;

describe.each(storeKinds())('dashboard in a real browser (open mode, %s)', (kind) => {
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

  const at = (page: string) => `${service.url}/ui/#/${page}`;

  it('serves the page at / and its files with the right caching, publicly', async () => {
    const root = await fetch(`${service.url}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/ui/');
    const index = await fetch(`${service.url}/ui/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    const html = await index.text();
    const asset = /\/ui\/assets\/[\w-]+\.js/.exec(html)?.[0];
    expect(asset).toBeDefined();
    const script = await fetch(`${service.url}${asset}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('cache-control')).toContain('immutable');
    // The page is told which optional parts the service has: exactly the routes that answer.
    const { features } = (await service.get('/ui/settings.json')).body;
    expect(features.alerts).toBe((await service.get('/alerts')).status !== 404);
    expect(features.prototype_status).toBe((await service.get('/prototypes/0/status')).status !== 404);
    const openapi = await service.get('/openapi.json');
    expect(Object.keys(openapi.body.paths).filter((path) => path === '/' || path.startsWith('/ui'))).toEqual([]);
  });

  it('shows "camera not available" for a 503, and the picture after an upload and a refresh', async () => {
    const { context, page, record } = await openPage(browser);
    record.allowFailedLoad('/picture');
    await page.goto(at('camera'));
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Camera not available');
    const upload = await service.request('PUT', '/picture', { raw: await cameraImage(browser), headers: { 'content-type': 'image/png' } });
    expect(upload.status).toBe(204);
    await page.getByRole('button', { name: 'Refresh picture' }).click();
    const image = page.getByRole('img', { name: /camera/ });
    await image.waitFor();
    await expect.poll(() => image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(640);
    expect(record.errors).toEqual([]);
    await context.close();
  });

  for (const [size, viewport] of WIDTHS) {
    it(`renders every page with data at ${size} width, accessibly, with no console error and no other host`, async () => {
      if ((await service.get('/picture')).status !== 200) {
        await service.request('PUT', '/picture', { raw: await cameraImage(browser), headers: { 'content-type': 'image/png' } });
      }
      const { context, page, record } = await openPage(browser, viewport);
      for (const name of PAGES) {
        await page.goto(at(name));
        await page.getByRole('heading', { level: 1 }).waitFor();
        if (name === 'overview') {
          await page.locator('.overview[data-loaded]').waitFor();
          await expect.poll(() => page.locator('.sensor .value[data-value]').count()).toBe(3);
          expect(await page.getByRole('combobox', { name: 'Tank' }).isVisible()).toBe(true);
          // The Alerts page is offered where the service has alerts, and only there.
          const { features } = (await service.get('/ui/settings.json')).body;
          expect(await page.getByRole('link', { name: 'Alerts' }).count()).toBe(features.alerts ? 1 : 0);
          // The decision in words (the seeded pump comes disabled).
          expect(await page.locator('.actuator .decision').first().textContent()).toMatch(/condition|Wait|Run|disabled/);
          await expect.poll(() => page.locator('.sparkline').count()).toBe(3);
        }
        if (name === 'charts') await page.locator('.chart canvas').waitFor();
        // On a phone each actuator starts folded: there, only in the page.
        if (name === 'settings') await page.locator('[data-actuator-form="1"]').waitFor({ state: 'attached' });
        if (name === 'camera') await page.getByRole('img', { name: /camera/ }).waitFor();
        if (name === 'data') await page.getByRole('checkbox', { name: 'EC #1' }).waitFor();
        expect(await seriousAccessibilityViolations(page), `${name} at ${size}`).toEqual([]);
        const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
        expect(overflow, `${name} scrolls sideways at ${size}`).toBeLessThanOrEqual(0);
        await screenshot(page, `${name}-${size}`);
      }
      expect(record.errors).toEqual([]);
      expect(record.foreignRequests(service.url)).toEqual([]);
      expect(record.requests.length).toBeGreaterThan(10);
      await context.close();
    });
  }

  it('updates values, levels, sparklines and decisions on the open overview from the event stream, without polling', async () => {
    // The seeded acid pump (pH above 6.5) comes disabled: enable it, with no period to wait out.
    expect((await service.patch('/actuators', [{ actuator_id: 1, enabled: true, activation_period: 0 }])).status).toBe(200);
    const { context, page, record } = await openPage(browser);
    const stream = page.waitForResponse((response) => new URL(response.url()).pathname === '/events');
    await page.goto(at('overview'));
    const ec = page.locator('[data-sensor-id="1"] .value');
    await ec.waitFor();
    await expect.poll(() => page.locator('.sparkline').count()).toBe(3);
    expect((await stream).status()).toBe(200);
    // Two streams: the overview's, of its tank, and the header's, of every tank's alerts (its count).
    await expect.poll(() => record.requestsTo('/events').length).toBe(2);
    const events = record.requestsTo('/events');
    expect(events.map((url) => url.searchParams.get('prototype_id')).sort()).toEqual(['0', null]);
    expect(events.find((url) => !url.searchParams.has('prototype_id'))?.searchParams.get('types')).toBe('alert');
    const loaded = record.requests.length;
    const sparkline = page.locator('[data-sensor-id="1"] .sparkline path');
    const dayBefore = await sparkline.getAttribute('d');

    expect((await service.post('/measurements', { sensor_id: 1, value: 2.71 })).status).toBeLessThan(300);
    await expect.poll(() => ec.getAttribute('data-value'), { timeout: LIVE_WAIT_MS, interval: 100 }).toBe('2.71');
    // 2.71 is above "high" (2): the card turns to the warning level, and the last day takes the reading.
    expect(await page.locator('[data-sensor-id="1"] .badge').textContent()).toBe('high');
    await expect.poll(() => sparkline.getAttribute('d')).not.toBe(dayBefore);

    // pH above 6.5 meets the acid pump's rule: its decision changes through an actuator event.
    const decision = page.locator('[data-actuator-id="1"] .decision');
    expect(await decision.textContent()).not.toBe('Run now: condition met');
    expect((await service.post('/measurements', { sensor_id: 2, value: 10.5 })).status).toBeLessThan(300);
    await expect.poll(() => decision.textContent(), { timeout: LIVE_WAIT_MS, interval: 100 }).toBe('Run now: condition met');
    await expect.poll(() => page.locator('[data-sensor-id="2"] .badge').textContent(), { timeout: LIVE_WAIT_MS }).toBe('critically high');

    // Everything came through the one stream: no request since the page loaded, no reload.
    expect(record.requests.slice(loaded).map(String)).toEqual([]);
    expect((await service.post('/measurements', { sensor_id: 1, value: 1.5 })).status).toBeLessThan(300);
    await expect.poll(() => ec.getAttribute('data-value'), { timeout: LIVE_WAIT_MS, interval: 100 }).toBe('1.5');
    expect(record.errors).toEqual([]);
    await context.close();
  });

  it('edits and saves every field of an actuator, and the API answers the new values', async () => {
    const { context, page, record } = await openPage(browser);
    await page.goto(at('settings'));
    const form = page.locator('[data-actuator-form="1"]');
    await form.getByLabel('Name').fill('Acid dosing');
    await form.getByLabel('Type').selectOption('base_pump');
    await form.getByLabel('Sensor').selectOption({ label: 'pH #2' });
    await form.getByLabel('Run when').selectOption('high');
    await form.getByLabel('Condition value').fill('6.5');
    await form.getByLabel('Period (s)').fill('600');
    await form.getByLabel('Duration (s)').fill('3.5');
    await form.getByLabel('Enabled').uncheck();
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => form.getByRole('status').textContent()).toBe('Saved.');
    const saved = (await service.get('/actuators/0')).body[0];
    expect(saved).toMatchObject({
      actuator_id: 1,
      actuator_name: 'Acid dosing',
      actuator_type: 'base_pump',
      sensor_id: 2,
      activation_condition: 'high',
      condition_value: 6.5,
      activation_period: 600,
      activation_duration: 3.5,
      enabled: false,
    });
    // The quick toggle turns it back on.
    await page.locator('[data-actuator-form="1"]').getByRole('button', { name: 'Enable' }).click();
    await expect.poll(async () => (await service.get('/actuators/0')).body[0].enabled).toBe(true);
    expect(record.errors).toEqual([]);
    await context.close();
  });

  it("shows the API's 422 next to the field it concerns, and saves nothing", async () => {
    const { context, page, record } = await openPage(browser);
    record.allowFailedLoad('/actuators');
    record.allowFailedLoad('/sensors');
    const before = (await service.get('/actuators/0')).body;
    await page.goto(at('settings'));
    const form = page.locator('[data-actuator-form="1"]');
    await form.getByLabel('Duration (s)').fill('9');
    await form.getByLabel('Period (s)').fill('-5');
    await form.getByRole('button', { name: 'Save' }).click();
    const message = form.locator('[data-field="activation_period"] .field-error');
    await message.waitFor();
    expect(await message.textContent()).toMatch(/>= 0|≥ 0|minimum|0/);
    expect(await form.getByLabel('Period (s)').getAttribute('aria-invalid')).toBe('true');
    expect(await form.locator('[data-field="activation_duration"] .field-error').count()).toBe(0);
    expect((await service.get('/actuators/0')).body).toEqual(before);

    // Thresholds out of order: the service names no single field, so the message sits with the thresholds.
    const sensorsBefore = (await service.get('/sensors/0')).body;
    const sensorForm = page.locator('[data-sensor-form="2"]');
    await sensorForm.getByLabel('Low', { exact: true }).fill('8');
    await sensorForm.getByRole('button', { name: 'Save' }).click();
    const order = sensorForm.locator('fieldset[data-field="thresholds"] .error');
    await order.waitFor();
    expect(await order.textContent()).toContain('critically_low ≤ low ≤ high ≤ critically_high');
    expect((await service.get('/sensors/0')).body).toEqual(sensorsBefore);
    expect(record.errors).toEqual([]);
    await context.close();
  });

  it('creates a sensor with its thresholds and unit', async () => {
    const { context, page, record } = await openPage(browser);
    await page.goto(at('settings'));
    const form = page.locator('[data-sensor-form="new"]');
    await form.getByLabel('Type').selectOption('oxygen');
    await form.getByLabel('Unit').fill('mg/L');
    await form.getByLabel('Critically low', { exact: true }).fill('2');
    await form.getByLabel('Low', { exact: true }).fill('4');
    await form.getByLabel('High', { exact: true }).fill('9');
    await form.getByLabel('Critically high', { exact: true }).fill('12');
    await form.getByRole('button', { name: 'Add sensor' }).click();
    await expect.poll(async () => (await service.get('/sensors/0')).body.length).toBe(4);
    const created = (await service.get('/sensors/0')).body[3];
    expect(created).toMatchObject({ sensor_type: 'oxygen', sensor_unit: 'mg/L', threshold_low: 4, threshold_critically_high: 12 });
    await page.locator(`[data-sensor-form="${created.sensor_id}"]`).waitFor();

    // On the overview it has no reading yet: the service answers its /last with 404, by contract.
    record.allowFailedLoad(`/measurements/${created.sensor_id}/last`);
    await page.goto(at('overview'));
    const card = page.locator(`[data-sensor-id="${created.sensor_id}"]`);
    await card.waitFor();
    expect(await card.locator('.badge').textContent()).toBe('no data');
    expect(await card.locator('.meta').textContent()).toBe('No measurement yet: connect its device.');
    // Its device starts reporting, so the later pages have data for every sensor.
    expect((await service.post('/measurements', { sensor_id: created.sensor_id, value: 7.2 })).status).toBeLessThan(300);
    expect(record.errors).toEqual([]);
    await context.close();
  });

  it('deletes an actuator after a confirmation', async () => {
    const created = await service.post('/actuators', {
      actuator_type: 'nutrients_A_pump',
      sensor_id: 1,
      condition_value: 1,
      activation_condition: 'low',
      activation_period: 60,
      activation_duration: 5,
      actuator_name: 'Spare pump',
    });
    const id = created.body.actuator_id;
    const { context, page, record } = await openPage(browser);
    await page.goto(at('settings'));
    const form = page.locator(`[data-actuator-form="${id}"]`);
    await form.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Spare pump?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => form.count()).toBe(0);
    const remaining = (await service.get('/actuators/0')).body.map((a: { actuator_id: number }) => a.actuator_id);
    expect(remaining).not.toContain(id);
    expect((await service.request('DELETE', `/actuators/${id}`)).status).toBe(404);
    expect(record.errors).toEqual([]);
    await context.close();
  });

  it('deletes a sensor: says what is below it, and deletes that with it only when confirmed', async () => {
    const created = await service.post('/sensors/', phSensorBody);
    const id = created.body.sensor_id as number;
    expect(
      (
        await service.post(
          '/measurements',
          [20, 21, 22].map((value) => ({ sensor_id: id, value })),
        )
      ).status,
    ).toBeLessThan(300);
    const { context, page, record } = await openPage(browser);
    record.allowFailedLoad(`/sensors/${id}`);
    await page.goto(at('settings'));
    const form = page.locator(`[data-sensor-form="${id}"]`);
    await form.getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: `Delete pH #${id}?` })
      .getByRole('button', { name: 'Delete' })
      .click();
    // Refused: the counts come from the service's 409.
    const warning = page.getByRole('dialog', { name: `pH #${id} still has data` });
    await warning.waitFor();
    // Only what is there: no actuators, so none are named.
    expect(await warning.locator('.dependents').textContent()).toBe('It still has 3 measurements.');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'settings-sensor-delete-desktop', { visible: true });
    await page.setViewportSize(PHONE);
    expect(await warning.getByRole('button', { name: 'Delete all of it' }).isVisible()).toBe(true);
    await screenshot(page, 'settings-sensor-delete-phone', { visible: true });
    await page.setViewportSize(DESKTOP);
    await warning.getByRole('button', { name: 'Cancel' }).click();
    await warning.waitFor({ state: 'hidden' });
    // The first question closes too (its own Delete button would otherwise be a second one in the form).
    await page.getByRole('dialog', { name: `Delete pH #${id}?` }).waitFor({ state: 'hidden' });
    expect((await service.get(`/measurements/${id}`)).body).toHaveLength(3);
    expect(record.requestsTo(`/sensors/${id}`).map((url) => url.searchParams.get('cascade'))).toEqual([null]);

    await form.getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: `Delete pH #${id}?` })
      .getByRole('button', { name: 'Delete' })
      .click();
    await warning.getByRole('button', { name: 'Delete all of it' }).click();
    await expect.poll(() => form.count()).toBe(0);
    expect(record.requestsTo(`/sensors/${id}`).at(-1)?.searchParams.get('cascade')).toBe('true');
    expect((await service.get(`/measurements/${id}`)).status).toBe(404);
    expect((await service.get('/sensors/0')).body.map((s: { sensor_id: number }) => s.sensor_id)).not.toContain(id);
    expect(record.errors).toEqual([]);
    await context.close();
  });

  it('draws several sensors on one time axis and fetches finer data for a dragged zoom', async () => {
    const { context, page, record } = await openPage(browser);
    await page.goto(at('charts'));
    await page.locator('.chart canvas').waitFor();
    await page.getByRole('checkbox', { name: 'Temperature #3' }).check();
    await expect.poll(() => page.locator('.u-legend .u-series').count()).toBe(3);
    const first = record.requestsTo('/measurements/1').at(-1) as URL;
    const width = await page.locator('.chart-card').evaluate((element) => element.clientWidth);
    const maxPoints = Number(first.searchParams.get('max_points'));
    expect(maxPoints).toBeGreaterThan(width * 0.8);
    expect(maxPoints).toBeLessThanOrEqual(width);
    const span = (url: URL) => Date.parse(url.searchParams.get('end_time') ?? '') - Date.parse(url.searchParams.get('start_time') ?? '');
    expect(span(first)).toBe(86_400_000);

    const box = (await page.locator('.chart .u-over').boundingBox()) as { x: number; y: number; width: number; height: number };
    const before = record.requestsTo('/measurements/1').length;
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.8, box.y + box.height / 2, { steps: 8 });
    await page.mouse.up();
    await expect.poll(() => record.requestsTo('/measurements/1').length).toBeGreaterThan(before);
    const zoomed = record.requestsTo('/measurements/1').at(-1) as URL;
    expect(span(zoomed)).toBeGreaterThan(86_400_000 * 0.15);
    expect(span(zoomed)).toBeLessThan(86_400_000 * 0.25);
    expect(Number(zoomed.searchParams.get('max_points'))).toBe(maxPoints);
    expect(Date.parse(zoomed.searchParams.get('start_time') ?? '')).toBeGreaterThan(Date.parse(first.searchParams.get('start_time') ?? ''));
    // Both sensors are fetched for the zoomed range: one time axis.
    expect(record.requestsTo('/measurements/3').at(-1)?.searchParams.get('start_time')).toBe(zoomed.searchParams.get('start_time'));
    expect(await page.getByRole('button', { name: 'Custom range' }).getAttribute('aria-pressed')).toBe('true');
    expect(record.errors).toEqual([]);
    await context.close();
  });

  it('appends live readings while the range ends now, and reads 7 d and longer from the aggregates, never every row', async () => {
    const { context, page, record } = await openPage(browser);
    const stream = page.waitForResponse((response) => new URL(response.url()).pathname === '/events');
    await page.goto(at('charts'));
    const chart = page.locator('.chart');
    await chart.locator('canvas').waitFor();
    expect((await stream).status()).toBe(200);
    expect(record.requestsTo('/events').at(-1)?.searchParams.getAll('sensor_id')).toEqual(['1']);
    const drawnEnd = async () => Number((await chart.getAttribute('data-drawn'))?.split('-')[1]);
    const reads = record.requestsTo('/measurements/').length;
    const posted = Date.now();
    expect((await service.post('/measurements', { sensor_id: 1, value: 1.95 })).status).toBeLessThan(300);
    // The range slides to the new reading's time, with no read of the range again.
    await expect.poll(drawnEnd, { timeout: LIVE_WAIT_MS, interval: 100 }).toBeGreaterThanOrEqual(posted);
    expect(record.requestsTo('/measurements/').length).toBe(reads);
    expect(await page.locator('.chart-card').getAttribute('data-mode')).toBe('raw');

    for (const [label, days] of [
      ['7 d', 7],
      ['1 y', 365],
    ] as const) {
      const asked = record.requestsTo('/measurements/1/aggregate').length;
      await page.getByRole('button', { name: label, exact: true }).click();
      await expect.poll(() => record.requestsTo('/measurements/1/aggregate').length).toBe(asked + 1);
      await expect.poll(() => page.locator('.chart-card').getAttribute('data-mode')).toBe('aggregate');
      const request = record.requestsTo('/measurements/1/aggregate').at(-1) as URL;
      const span = Date.parse(request.searchParams.get('end_time') ?? '') - Date.parse(request.searchParams.get('start_time') ?? '');
      expect(span).toBe(days * 86_400_000);
      expect(Number(request.searchParams.get('max_points'))).toBeGreaterThan(100);
      await expect.poll(async () => Number(await page.locator('.chart-note').getAttribute('data-points'))).toBeGreaterThan(0);
      expect(await page.locator('.chart-note').textContent()).toContain('buckets');
    }
    // Every read of a chart is bounded: max_points on the raw rows, or the aggregates.
    const unbounded = record
      .requestsTo('/measurements/')
      .filter((url) => !url.searchParams.has('max_points') && !url.pathname.endsWith('/last'));
    expect(unbounded.map(String)).toEqual([]);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'charts-year-desktop');
    expect(record.errors).toEqual([]);
    await context.close();
  });

  it("exports the CSV with the chosen filters, byte for byte the API's", async () => {
    const { context, page, record } = await openPage(browser);
    await page.goto(at('data'));
    await page.getByRole('checkbox', { name: 'EC #1' }).check();
    await page.getByRole('checkbox', { name: 'pH #2' }).check();
    const from = new Date(Date.now() - 6 * 3_600_000);
    from.setUTCSeconds(0, 0);
    await page.getByLabel('From (optional)').fill(from.toISOString().slice(0, 16));
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    const file = await (await download).path();
    const csv = readFileSync(file, 'utf8');

    const request = record.requestsTo('/measurements/export').at(-1) as URL;
    expect(request.searchParams.getAll('sensor_id')).toEqual(['1', '2']);
    expect(request.searchParams.get('prototype_id')).toBe('0');
    expect(request.searchParams.get('start_time')).toBe(from.toISOString());
    const expected = await service.get(`/measurements/export?prototype_id=0&sensor_id=1&sensor_id=2&start_time=${from.toISOString()}`);
    expect(csv).toBe(expected.text);
    const lines = csv.trim().split(/\r?\n/);
    expect(lines[0]).toContain('Sensor ID,Sensor Type');
    expect(lines.length).toBeGreaterThan(100);
    expect(new Set(lines.slice(1).map((line) => line.split(',')[0]))).toEqual(new Set(['1', '2']));
    expect(record.errors).toEqual([]);
    await context.close();
  });

  it('asks before the generator replaces the data, and generates only when confirmed', async () => {
    // Synthetic data is refused while a pump of the tank is enabled (a test above enabled one).
    await service.store.actuators.disable((await service.store.actuators.all()).map((a) => a.actuator_id));
    const { context, page, record } = await openPage(browser);
    const count = async () => (await service.get('/measurements/export?sensor_id=3')).text.trim().split('\n').length - 1;
    const before = await count();
    await page.goto(at('data'));
    // The generator is folded under Advanced, and adds rather than replaces until told.
    await page.getByText('Advanced', { exact: true }).click();
    await page.getByLabel('Measurements', { exact: true }).fill('600');
    expect(await page.getByLabel("Replace this tank's measurements").isChecked()).toBe(false);
    await page.getByLabel("Replace this tank's measurements").check();
    await page.getByRole('button', { name: 'Generate' }).click();
    const dialog = page.getByRole('dialog', { name: "Delete and regenerate this tank's data?" });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await count()).toBe(before);

    await page.getByRole('button', { name: 'Generate' }).click();
    await dialog.getByRole('button', { name: 'Delete and generate' }).click();
    await expect
      .poll(() => page.locator('.status').last().textContent(), { timeout: 20_000 })
      .toMatch(/^Generated \d+ measurements, deleted \d+/);
    // The tank on screen only: prototype 0's sensors share the measurements.
    const sensors = (await service.get('/sensors/0')).body.length;
    expect(await count()).toBe(Math.ceil(600 / sensors));
    expect(record.errors).toEqual([]);
    await context.close();
  });

  it('reads everything again when the stream says reset (synthetic data replaced the measurements)', async () => {
    const { context, page, record } = await openPage(browser);
    const stream = page.waitForResponse((response) => new URL(response.url()).pathname === '/events');
    await page.goto(at('overview'));
    await page.locator('.overview[data-loaded]').waitFor();
    await stream;
    // The overview's first read: the prototype's status where the service has it, else each sensor's newest reading.
    const snapshotReads = () =>
      record.requests.filter((url) => ['/prototypes/0/status', '/measurements/1/last'].includes(url.pathname)).length;
    const reads = snapshotReads();
    expect(reads).toBeGreaterThan(0);
    await service.store.actuators.disable((await service.store.actuators.all()).map((a) => a.actuator_id));
    const generated = await service.post('/Measurement/Random', { nb_measurements: 40, replace: true });
    expect(generated.status).toBe(200);
    await expect.poll(snapshotReads, { timeout: LIVE_WAIT_MS }).toBeGreaterThan(reads);
    const newest = (await service.get('/measurements/1/last')).body.value;
    await expect.poll(async () => Number(await page.locator('[data-sensor-id="1"] .value').getAttribute('data-value'))).toBe(newest);
    expect(record.errors).toEqual([]);
    await context.close();
  });

  it('converts units and keeps the units and the dark theme across a reload', async () => {
    const { context, page, record } = await openPage(browser);
    await page.goto(at('settings'));
    await page.getByLabel('Temperature', { exact: true }).selectOption('°F');
    await page.getByLabel('Conductivity (EC)').selectOption('µS/cm');
    await page.getByLabel('Theme').selectOption('dark');
    await page.goto(at('overview'));
    await page.reload();
    const temperature = page.locator('[data-sensor-id="3"]');
    await temperature.locator('.value').waitFor();
    const celsius = Number(await temperature.locator('.value').getAttribute('data-value'));
    expect(await temperature.locator('.unit').textContent()).toBe('°F');
    const shown = Number((await temperature.locator('.value').textContent())?.replace(/,/g, ''));
    expect(shown).toBeCloseTo((celsius * 9) / 5 + 32, 1);
    expect(await page.locator('[data-sensor-id="1"] .unit').textContent()).toBe('µS/cm');
    expect(await page.evaluate<string>('document.documentElement.dataset.theme')).toBe('dark');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'overview-desktop-dark');
    expect(record.errors).toEqual([]);
    await context.close();
  });
});

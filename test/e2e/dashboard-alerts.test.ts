import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';
import { DESKTOP, launchBrowser, openPage, screenshot, seriousAccessibilityViolations, WIDTHS } from './browser.js';
import { seedDay } from './dashboard-data.js';

/** Generous for a loaded machine: an event reaches the page within milliseconds. */
const LIVE_WAIT_MS = 10_000;
/** The alerts page reads this many at a time. */
const ALERT_PAGE = 50;
/**
 * Temperature #3 crossing from below "low" (10) to above "high" (30) and back: a crossing clears
 * the alert of the side it left and raises the next. At most this many, to fill more than a page.
 */
const MAX_CROSSINGS = 1000;

interface Alert {
  alert_id: number;
  sensor_id: number;
  state: string;
  kind: string;
  acknowledged_at: string | null;
}

describe.each(storeKinds())('dashboard alerts in a real browser (%s)', (kind) => {
  let service: TestService;
  let browser: Browser;

  const alerts = async (query: string) => (await service.get<Alert[]>(`/alerts?${query}`)).body;

  beforeAll(async () => {
    service = await startService(kind);
    await seedDay(service);
    // More cleared alerts than a page holds. The service judges each sensor's newest reading, so
    // crossings that arrive while it is still judging an earlier one may give no alert of their own.
    for (let i = 0; (await alerts('state=cleared&sensor_id=3&limit=1000')).length <= ALERT_PAGE; i += 5) {
      if (i > MAX_CROSSINGS) throw new Error('the temperature crossings raised too few alerts');
      for (let j = i; j < i + 5; j++) {
        expect((await service.post('/measurements', { sensor_id: 3, value: j % 2 === 0 ? 5 : 35 })).status).toBe(200);
      }
    }
    expect((await service.post('/measurements', { sensor_id: 2, value: 8 })).status).toBe(200);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  it('shows the active alerts on the overview, acknowledges one, and adds a raised one from the stream', async () => {
    const { context, page, record } = await openPage(browser, DESKTOP);
    const stream = page.waitForResponse((response) => new URL(response.url()).pathname === '/events');
    await page.goto(`${service.url}/ui/#/overview`);
    await page.locator('.overview[data-loaded]').waitFor();
    await stream;
    // One request for the whole overview: the prototype's status.
    expect(record.requestsTo('/prototypes/0/status')).toHaveLength(1);
    expect(record.requestsTo('/measurements/2/last')).toHaveLength(0);
    const active = await alerts('state=active&prototype_id=0');
    expect(active.map((a) => a.sensor_id).sort()).toEqual([2, 3]);
    const cards = page.locator('.alerts .alert');
    await expect.poll(() => cards.count()).toBe(2);
    expect(await page.locator('[data-sensor-id="2"] .badge').textContent()).toBe('high');

    const ph = active.find((a) => a.sensor_id === 2) as Alert;
    await page.getByRole('button', { name: 'Acknowledge: pH #2, high' }).click();
    await page.locator(`[data-alert-id="${ph.alert_id}"] .acknowledged`).waitFor();
    expect((await service.get<Alert>(`/alerts/${ph.alert_id}`)).body.acknowledged_at).not.toBeNull();

    // EC above critically high (3): raised by the service, told by the stream.
    expect((await service.post('/measurements', { sensor_id: 1, value: 3.5 })).status).toBe(200);
    await expect.poll(() => cards.count(), { timeout: LIVE_WAIT_MS }).toBe(3);
    expect(await cards.first().getByRole('heading').textContent()).toBe('EC #1: critically high');
    // Besides the header's one read of every tank's active alerts (its count), only the acknowledgement.
    expect(record.requestsTo('/alerts/').map((url) => url.pathname)).toEqual([`/alerts/${ph.alert_id}/acknowledge`]);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'overview-alerts-desktop');
    expect(record.errors).toEqual([]);
    await context.close();
  });

  for (const [size, viewport] of WIDTHS) {
    it(`lists alerts by state and sensor, pages back with "before", and follows the stream at ${size} width`, async () => {
      const { context, page, record } = await openPage(browser, viewport);
      await page.goto(`${service.url}/ui/#/alerts`);
      await page.locator('.alerts-page[data-loaded]').waitFor();
      const cards = page.locator('.alerts .alert');
      await expect.poll(() => cards.count()).toBe((await alerts('state=active&prototype_id=0')).length);

      // The page asks for the filtered list once it has drawn the choice: its answer is awaited, or
      // the cards counted below could still be those of the state alone.
      const filtered = page.waitForResponse((response) => {
        const url = new URL(response.url());
        return url.pathname === '/alerts' && url.searchParams.get('sensor_id') === '3' && url.searchParams.get('state') === 'cleared';
      });
      await page.getByLabel('State').selectOption('cleared');
      await page.getByLabel('Sensor').selectOption({ label: 'Temperature #3' });
      await filtered;
      const cleared = await alerts('state=cleared&sensor_id=3&limit=1000');
      expect(cleared.length).toBeGreaterThan(ALERT_PAGE);
      await expect.poll(() => cards.count()).toBe(ALERT_PAGE);
      // A cleared alert nobody answered has nothing left to acknowledge.
      expect(await page.getByRole('button', { name: /^Acknowledge/ }).count()).toBe(0);
      const first = record.requestsTo('/alerts').at(-1) as URL;
      expect(first.searchParams.get('sensor_id')).toBe('3');
      expect(first.searchParams.get('state')).toBe('cleared');
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot(page, `alerts-${size}`);

      await page.getByRole('button', { name: 'Older alerts' }).click();
      await expect.poll(() => cards.count()).toBe(cleared.length);
      expect(record.requestsTo('/alerts').at(-1)?.searchParams.get('before')).toBe(String(cleared[ALERT_PAGE - 1].alert_id));
      expect(await page.getByRole('button', { name: 'Older alerts' }).count()).toBe(0);
      const shown = await cards.evaluateAll((items) =>
        items.map((item) => Number((item as unknown as { dataset: { alertId: string } }).dataset.alertId)),
      );
      expect(shown).toEqual(cleared.map((a) => a.alert_id));

      // Back to the active ones: a crossing clears the temperature's alert and raises the next, live.
      await page.getByLabel('State').selectOption('active');
      const before = (await alerts('state=active&sensor_id=3'))[0];
      await page.locator(`[data-alert-id="${before.alert_id}"]`).waitFor();
      const next = before.kind === 'low' ? 35 : 5;
      expect((await service.post('/measurements', { sensor_id: 3, value: next })).status).toBe(200);
      await page.locator(`[data-alert-id="${before.alert_id}"]`).waitFor({ state: 'detached', timeout: LIVE_WAIT_MS });
      const [raised] = await alerts('state=active&sensor_id=3');
      await page.locator(`[data-alert-id="${raised.alert_id}"]`).waitFor({ timeout: LIVE_WAIT_MS });
      expect(record.errors).toEqual([]);
      expect(record.foreignRequests(service.url)).toEqual([]);
      await context.close();
    });
  }
});

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { manualServiceTimers } from '../helpers/manual-timers.js';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';
import { launchBrowser, openPage, screenshot, seriousAccessibilityViolations, WIDTHS } from './browser.js';

/** The night the grower asks about: why did no pump dose at 03:00? */
const T0 = Date.UTC(2026, 10, 22, 2);
const MIN = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const TANK = 5;

interface Change {
  at: string;
  reason: string;
  status: string;
}

describe.each(storeKinds())('why a pump did not dose at 03:00, in the journal (%s)', (kind) => {
  let service: TestService;
  let manual: ReturnType<typeof manualServiceTimers>;
  let browser: Browser;
  const pumps: Record<'interlock' | 'limit' | 'stale', number> = { interlock: 0, limit: 0, stale: 0 };

  const ok = <T>(res: { status: number; body: T; text: string }) => {
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  const at = (ms: number) => manual.advanceTo(ms);
  const measure = async (sensor_id: number, value: number) =>
    ok(await service.post('/measurements', { sensor_id, value, timestamp: iso(service.clock.now as number) }));
  const sensor = async (fields: Record<string, unknown>) =>
    ok(
      await service.post('/sensors/', {
        prototype_id: TANK,
        threshold_critically_low: 0,
        threshold_low: 0,
        threshold_high: 100,
        threshold_critically_high: 100,
        ...fields,
      }),
    ).sensor_id as number;
  const pump = async (fields: Record<string, unknown>) =>
    ok(await service.post('/actuators', { activation_period: 60, activation_duration: 3, ...fields })).actuator_id as number;
  /** The reason in force at an instant: the newest change at or before it. */
  const reasonAt = async (id: number, ms: number) =>
    (ok(await service.get<Change[]>(`/actuators/${id}/decisions?end_time=${iso(ms + 1)}&limit=1`))[0] as Change).reason;
  const settled = async (id: number, reason: string) =>
    eventually(async () => {
      await service.app.decisionsRecorded();
      return ok(await service.get<Change[]>(`/actuators/${id}/decisions?limit=1`))[0]?.reason === reason;
    }, `pump ${id} ${reason}`);

  beforeAll(async () => {
    manual = manualServiceTimers(T0);
    service = await startService(kind, { now: T0, app: { liveEvents: { timers: manual.timers } } });
    manual.follow(service);
    ok(await service.post('/prototypes', { prototype_id: TANK, prototype_name: 'Lettuce NFT' }));
    const ph = await sensor({ sensor_type: 'ph', sensor_unit: 'pH', sensor_name: 'Tank pH', stale_after: 3600 });
    const level = await sensor({ sensor_type: 'water_level', sensor_unit: '%', sensor_name: 'Tank level', stale_after: 7200 });
    const ec = await sensor({ sensor_type: 'ec', sensor_unit: 'mS/cm', sensor_name: 'Tank EC', stale_after: 600 });
    const acid = { actuator_type: 'acid_pump', sensor_id: ph, condition_value: 6.5, activation_condition: 'high' };
    pumps.interlock = await pump({
      ...acid,
      actuator_name: 'Acid pump',
      interlocks: [{ sensor_id: level, block_below: 20, block_above: null }],
    });
    pumps.limit = await pump({ ...acid, actuator_name: 'Acid pump 2', max_doses_per_hour: 1 });
    pumps.stale = await pump({
      actuator_type: 'nutrients_A_pump',
      actuator_name: 'Nutrients A',
      sensor_id: ec,
      condition_value: 1.5,
      activation_condition: 'low',
    });

    at(T0 + 2 * MIN);
    await measure(ph, 8);
    await measure(level, 50);
    await measure(ec, 1);
    for (const id of Object.values(pumps)) await settled(id, 'ok');
    at(T0 + 40 * MIN);
    ok(await service.patch(`/actuators/${pumps.limit}/last_activated`));
    at(T0 + 45 * MIN);
    await measure(ph, 8);
    await measure(ec, 1);
    await settled(pumps.limit, 'limit');
    at(T0 + 50 * MIN);
    await measure(level, 10);
    await settled(pumps.interlock, 'interlock');
    // The EC probe's last reading was at 02:45: stale after 10 minutes.
    at(T0 + 80 * MIN);
    await settled(pumps.stale, 'stale');
    await measure(level, 50);
    await measure(ph, 8);
    await measure(ec, 1);
    await settled(pumps.interlock, 'ok');
    await settled(pumps.stale, 'ok');
    at(T0 + 101 * MIN);
    await settled(pumps.limit, 'ok');

    const three = T0 + 60 * MIN;
    expect(await reasonAt(pumps.interlock, three)).toBe('interlock');
    expect(await reasonAt(pumps.limit, three)).toBe('limit');
    expect(await reasonAt(pumps.stale, three)).toBe('stale');
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  for (const [size, viewport] of WIDTHS) {
    it(`answers "why not at 03:00" with the holds as spans at ${size} width`, async () => {
      const { context, page, record } = await openPage(browser, viewport);
      await page.addInitScript(`localStorage.setItem('sensorhub.prototype', '${TANK}')`);
      await page.goto(`${service.url}/ui/#/journal`);
      await page.getByLabel('Show').selectOption({ label: 'Holds: why a pump did not run' });
      const entries = page.locator('.journal-entry');
      await expect.poll(() => entries.count()).toBeGreaterThanOrEqual(3);
      const texts = await entries.allTextContents();
      const line = (start: string) => texts.find((t) => t.includes(start)) ?? texts.join('\n');
      expect(line('Acid pump held from 02:50')).toContain('Acid pump held from 02:50 to 03:20: Interlock: Tank level is 10 (below 20)');
      expect(line('Acid pump 2 held from 02:41')).toContain('Acid pump 2 held from 02:41 to 03:40: Dose limit');
      expect(line('Acid pump 2 held from 02:41')).toMatch(/limit|doses/i);
      expect(line('Nutrients A held from 02:55')).toContain('Nutrients A held from 02:55 to 03:20');
      expect(line('Nutrients A held from 02:55')).toMatch(/old|stale/i);
      // "Everything" lists them too, beside the dose.
      await page.getByLabel('Show').selectOption({ label: 'Everything' });
      await expect.poll(async () => (await entries.allTextContents()).some((t) => t.includes('Acid pump 2 ran'))).toBe(true);
      expect((await entries.allTextContents()).some((t) => t.includes('Acid pump held from 02:50'))).toBe(true);
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot(page, `why-journal-${size}`);
      expect(record.errors).toEqual([]);
      await context.close();
    });
  }
});

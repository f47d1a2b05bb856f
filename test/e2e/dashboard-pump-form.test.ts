import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';
import { launchBrowser, openPage, seriousAccessibilityViolations, WIDTHS } from './browser.js';

interface Actuator {
  actuator_type: string;
  activation_condition: string;
}

describe.each(storeKinds())('the new pump form keeps a tank safe (%s)', (kind) => {
  let service: TestService;
  let browser: Browser;

  beforeAll(async () => {
    service = await startService(kind);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  for (const [size, viewport] of WIDTHS) {
    it(`defaults an acid pump to run above its value, a base pump below, until the grower picks at ${size} width`, async () => {
      const { context, page, record } = await openPage(browser, viewport);
      await page.goto(`${service.url}/ui/#/settings`);
      const form = page.locator('[data-actuator-form="new"]');
      await form.waitFor({ state: 'attached' });
      // On a phone the forms start folded: open this one.
      if (!(await form.isVisible())) await page.locator('summary', { hasText: 'Add an actuator' }).click();
      await form.waitFor();
      const type = form.getByLabel('Type');
      const condition = form.getByLabel('Run when');
      expect(await type.inputValue()).toBe('acid_pump');
      expect(await condition.inputValue()).toBe('high');
      await type.selectOption('base_pump');
      expect(await condition.inputValue()).toBe('low');
      await type.selectOption('nutrients_A_pump');
      expect(await condition.inputValue()).toBe('low');
      await type.selectOption('acid_pump');
      expect(await condition.inputValue()).toBe('high');
      // Once the grower picks, a change of type leaves the choice alone.
      await condition.selectOption('low_or_high');
      await type.selectOption('base_pump');
      expect(await condition.inputValue()).toBe('low_or_high');
      await type.selectOption('acid_pump');
      await condition.selectOption('high');

      // Saved as shown.
      await form.getByLabel('Condition value').fill('6.5');
      await form.getByLabel('Period (s)').fill('600');
      await form.getByLabel('Duration (s)').fill('2');
      await form.getByRole('button', { name: 'Add actuator' }).click();
      await expect
        .poll(async () => (await service.get<Actuator[]>('/actuators/0')).body.map((a) => [a.actuator_type, a.activation_condition]))
        .toContainEqual(['acid_pump', 'high']);
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      expect(record.errors).toEqual([]);
      await context.close();
    });
  }
});

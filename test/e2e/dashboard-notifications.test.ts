import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { farEnd } from '../helpers/notification-far-ends.js';
import { startService } from '../helpers/service.js';
import { launchBrowser, openPage, screenshot, seriousAccessibilityViolations, WIDTHS } from './browser.js';

const BOT_TOKEN = '123456:ABCdefGHIjklMNOpqrSTUvwxYZ012345678';

describe('dashboard: the Notifications page', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const [size, viewport] of WIDTHS) {
    it(`adds an ntfy and a Telegram channel, tests them, edits one and never shows a secret, at ${size} width`, async () => {
      const ntfy = await farEnd('ntfy');
      const telegram = await farEnd('telegram');
      const service = await startService('sqlite', { env: { TELEGRAM_API_URL: telegram.url } });
      const { context, page, record } = await openPage(browser, viewport);
      try {
        await page.goto(`${service.url}/ui/#/notifications`);
        await page.locator('.notifications-page[data-loaded]').waitFor();
        expect(await page.textContent('.notifications-page')).toContain('No channel yet');

        const form = page.getByRole('form', { name: 'Add a channel' });
        // A bad topic: the service's 422 beside the field, nothing saved.
        record.allowFailedLoad('/notifications/channels');
        await form.getByLabel('Name').fill('Anna’s phone');
        await form.getByLabel('Server URL').fill(ntfy.url);
        await form.getByLabel('Topic').fill('bad topic!');
        await form.getByRole('button', { name: 'Add channel' }).click();
        await expect.poll(() => form.locator('[data-field="topic"] .field-error').textContent()).toContain('letters, digits');
        expect((await service.get('/notifications/channels')).body).toEqual([]);
        await form.getByLabel('Topic').fill('tanks');
        await form.getByLabel('Quiet from').fill('22:00');
        await form.getByLabel('Quiet until').fill('07:00');
        await form.getByRole('button', { name: 'Add channel' }).click();
        await page.locator('.channel', { hasText: 'Anna’s phone' }).waitFor();

        await form.getByLabel('Type').selectOption('telegram');
        await form.getByLabel('Name').fill('Family chat');
        await form.getByLabel('Chat id').fill('-1001234');
        await form.getByLabel('Bot token').fill(BOT_TOKEN);
        await form.getByLabel('Critical alerts only').check();
        await form.getByRole('button', { name: 'Add channel' }).click();
        const chat = page.locator('.channel', { hasText: 'Family chat' });
        await chat.waitFor();
        expect(await chat.textContent()).toContain('bot_token set (never shown)');
        expect(await page.content()).not.toContain(BOT_TOKEN);

        // Test: what the far end answered, on the card.
        const phone = page.locator('.channel', { hasText: 'Anna’s phone' });
        await phone.getByRole('button', { name: 'Test' }).click();
        await expect.poll(() => phone.locator('.test-result').textContent()).toContain('Delivered: the far end answered 200');
        expect(ntfy.received).toHaveLength(1);
        await chat.getByRole('button', { name: 'Test' }).click();
        await expect.poll(() => chat.locator('.test-result').textContent()).toContain('Delivered');
        expect(telegram.received[0].body.chat_id).toBe('-1001234');
        expect(await page.content()).not.toContain(BOT_TOKEN);

        expect(await seriousAccessibilityViolations(page)).toEqual([]);
        await screenshot(page, `notifications-${size}`);

        // Edit keeps the secret when its field is left empty.
        await chat.getByRole('button', { name: 'Edit' }).click();
        const edit = page.getByRole('form', { name: 'Edit the channel' });
        expect(await edit.getByLabel('Bot token').inputValue()).toBe('');
        await edit.getByLabel('Name').fill('Whole family');
        await edit.getByRole('button', { name: 'Save channel' }).click();
        await page.locator('.channel', { hasText: 'Whole family' }).waitFor();
        const [, stored] = (await service.get('/notifications/channels')).body;
        expect(stored).toMatchObject({ name: 'Whole family', min_severity: 'critical', secrets_set: ['bot_token'] });
        expect(await seriousAccessibilityViolations(page)).toEqual([]);
        expect(record.errors.filter((e) => !e.includes('422'))).toEqual([]);
        expect(record.foreignRequests(service.url)).toEqual([]);
      } finally {
        await context.close();
        await service.close();
        await ntfy.close();
        await telegram.close();
      }
    }, 120_000);
  }
});

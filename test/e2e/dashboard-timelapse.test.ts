import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CameraStandIn, probeVideo, startCamera } from '../helpers/camera.js';
import { startService, type TestService } from '../helpers/service.js';
import { launchBrowser, openPage, PHONE, screenshot, seriousAccessibilityViolations } from './browser.js';

/** Frames are taken in real time (a second apart here) and ffmpeg makes the video: generous. */
const VIDEO_WAIT_MS = 30_000;

interface Metadata {
  id: string;
  name: string;
  frames: number;
  ready: boolean;
}

interface StartFields {
  name: string;
  every: [string, string];
  for: [string, string];
  framerate: string;
}

/** Fills the start form as a grower would, and sends it. */
async function start(form: Locator, fields: StartFields): Promise<void> {
  await form.getByLabel('Name').fill(fields.name);
  await form.getByLabel('A frame every').fill(fields.every[0]);
  await form.getByLabel('Unit of the interval').selectOption(fields.every[1]);
  await form.getByLabel('For', { exact: true }).fill(fields.for[0]);
  await form.getByLabel('Unit of the duration').selectOption(fields.for[1]);
  await form.getByLabel('Video frame rate (per second)').fill(fields.framerate);
  await form.getByRole('button', { name: 'Start timelapse' }).click();
}

describe('dashboard timelapses in a real browser', () => {
  let camera: CameraStandIn;
  let service: TestService;
  let browser: Browser;

  beforeAll(async () => {
    camera = await startCamera();
    service = await startService('sqlite', { env: { PICTURE_SOURCE: camera.url, PICTURE_CACHE_MS: '0' } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
    await camera?.close();
  });

  const timelapses = async () => (await service.get<Metadata[]>('/timelapse')).body;

  it('starts a timelapse from the form, follows it, and downloads its video', async () => {
    const { context, page, record } = await openPage(browser);
    record.allowFailedLoad('/timelapse/start');
    await page.goto(`${service.url}/ui/#/camera`);
    const form = page.locator('form[aria-labelledby="timelapse-start-heading"]');
    await start(form, { name: 'Lettuce', every: ['10', 'seconds'], for: ['5', 'seconds'], framerate: '2' });
    // Shorter than one interval: the service's 422 sits under the duration, and nothing starts.
    const message = form.locator('[data-field="duration"] .field-error');
    await message.waitFor();
    expect(await message.textContent()).toContain('must be at least frequency');
    expect(await timelapses()).toEqual([]);
    expect((await service.get('/timelapse/status')).body.running).toBe(false);

    await form.getByLabel('A frame every').fill('1');
    await form.getByLabel('For', { exact: true }).fill('3');
    await form.getByRole('button', { name: 'Start timelapse' }).click();
    const running = page.locator('[data-timelapse-running]');
    await running.waitFor();
    expect(await running.getByRole('heading').textContent()).toBe('Lettuce: running');
    // The preview is the newest frame, once there is one.
    const preview = running.getByRole('img', { name: 'Newest frame of Lettuce' });
    await preview.waitFor({ timeout: VIDEO_WAIT_MS });
    expect(await preview.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(64);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'camera-timelapse-running-desktop');

    // Three frames, then the video: the list offers it for download.
    const [started] = await timelapses();
    const item = page.locator(`[data-timelapse="${started.id}"][data-ready]`);
    await item.waitFor({ timeout: VIDEO_WAIT_MS });
    const download = page.waitForEvent('download');
    await item.getByRole('button', { name: 'Download the video of Lettuce' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`timelapse_${started.id}.mp4`);
    const [done] = await timelapses();
    expect(done).toMatchObject({ id: started.id, ready: true, frames: 3 });
    expect(probeVideo(await file.path())).toMatchObject({ codec: 'h264', frames: 3 });
    expect(await page.getByRole('button', { name: 'Start timelapse' }).isVisible()).toBe(true);
    expect(record.errors).toEqual([]);
    expect(record.foreignRequests(service.url)).toEqual([]);
    await context.close();
  });

  it('stops a running timelapse, and deletes one after a confirmation', async () => {
    const { context, page, record } = await openPage(browser, PHONE);
    await page.goto(`${service.url}/ui/#/camera`);
    const form = page.locator('form[aria-labelledby="timelapse-start-heading"]');
    await start(form, { name: 'Basil', every: ['1', 'minutes'], for: ['1', 'hours'], framerate: '24' });
    const running = page.locator('[data-timelapse-running]');
    await running.waitFor();
    await running.getByRole('img', { name: 'Newest frame of Basil' }).waitFor({ timeout: VIDEO_WAIT_MS });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'camera-timelapse-running-phone');
    await running.getByRole('button', { name: 'Stop and make the video' }).click();
    await running.waitFor({ state: 'detached' });
    expect((await service.get('/timelapse/status')).body.running).toBe(false);
    const basil = (await timelapses()).find((t) => t.name === 'Basil') as Metadata;
    await page.locator(`[data-timelapse="${basil.id}"][data-ready]`).waitFor({ timeout: VIDEO_WAIT_MS });
    await screenshot(page, 'camera-timelapses-phone');

    const lettuce = (await timelapses()).find((t) => t.name === 'Lettuce') as Metadata;
    const item = page.locator(`[data-timelapse="${lettuce.id}"]`);
    await item.getByRole('button', { name: 'Delete Lettuce' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Lettuce?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await timelapses()).map((t) => t.name)).toContain('Lettuce');
    await item.getByRole('button', { name: 'Delete Lettuce' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await item.waitFor({ state: 'detached' });
    expect((await timelapses()).map((t) => t.name)).toEqual(['Basil']);
    expect((await service.get(`/timelapse/${lettuce.id}/download`)).status).toBe(404);
    expect(record.errors).toEqual([]);
    await context.close();
  });
});

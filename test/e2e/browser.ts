import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium (`npm test` installs it when missing). */
export const CHROMIUM = '/usr/bin/chromium';

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };
/** Every page is checked at both widths. */
export const WIDTHS = [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const;
export const SCREENSHOTS = new URL('../../test-results/screenshots/', import.meta.url).pathname;

export function launchBrowser(): Promise<Browser> {
  // A browser test never passes by being skipped: without Chromium it fails, saying how to get it.
  if (!existsSync(CHROMIUM)) throw new Error(`the dashboard's browser tests need Chromium at ${CHROMIUM}: apt-get install -y chromium`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
}

/**
 * Everything a page did that a test checks afterwards: every request URL (none may leave the
 * service's host) and every console error or uncaught exception. A failed load the test provoked
 * on purpose (a 503 camera, a refused delete) is allowed by naming its path.
 */
export class PageRecord {
  readonly requests: URL[] = [];
  readonly errors: string[] = [];
  private readonly allowed: string[] = [];

  constructor(readonly page: Page) {
    page.on('request', (request) => this.requests.push(new URL(request.url())));
    page.on('pageerror', (error) => this.errors.push(`uncaught: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      const source = message.location().url;
      if (this.allowed.some((path) => source.includes(path))) return;
      this.errors.push(`${message.text()} (${source})`);
    });
  }

  allowFailedLoad(path: string): void {
    this.allowed.push(path);
  }

  /** Requests to any host but the service's (data: and blob: URLs stay in the page). */
  foreignRequests(serviceUrl: string): string[] {
    const host = new URL(serviceUrl).host;
    return this.requests.filter((url) => !['data:', 'blob:'].includes(url.protocol) && url.host !== host).map(String);
  }

  requestsTo(pathPrefix: string): URL[] {
    return this.requests.filter((url) => url.pathname.startsWith(pathPrefix));
  }
}

export async function openPage(browser: Browser, viewport = DESKTOP): Promise<{ context: BrowserContext; page: Page; record: PageRecord }> {
  // UTC, so that the date inputs and the times the test computes agree.
  const context = await browser.newContext({ viewport, timezoneId: 'UTC', locale: 'en-GB', acceptDownloads: true });
  const page = await context.newPage();
  return { context, page, record: new PageRecord(page) };
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core in the page: the violations a screen-reader or keyboard user would hit hardest. */
export async function seriousAccessibilityViolations(page: Page): Promise<string[]> {
  // Evaluated through the browser's debugging protocol: a <script> tag with the source in it is
  // an inline script, which the dashboard's Content-Security-Policy refuses.
  await page.evaluate(axeSource);
  // A string, evaluated in the page: this file is type-checked without the DOM library.
  const violations = await page.evaluate<AxeViolation[]>('axe.run(document).then((result) => result.violations)');
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** The whole page, or with `visible` what the viewport shows: a modal dialog over its backdrop. */
export async function screenshot(page: Page, name: string, { visible = false } = {}): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: !visible });
}

/** A real PNG (a camera-like gradient) drawn by the browser itself, for the picture upload. */
export async function cameraImage(browser: Browser): Promise<Buffer> {
  const page = await browser.newPage({ viewport: { width: 640, height: 360 } });
  await page.setContent(
    '<body style="margin:0;background:linear-gradient(180deg,#8ec5fc 0%,#d4f1c5 55%,#4f7d3a 56%,#2f5a24 100%)">' +
      '<div style="position:absolute;left:60px;top:150px;width:520px;height:140px;background:repeating-linear-gradient(90deg,#3c8d2f 0 30px,#6cbf4f 30px 60px);border-radius:12px"></div></body>',
  );
  const png = await page.screenshot();
  await page.close();
  return png;
}

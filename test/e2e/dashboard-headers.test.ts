import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { launchBrowser, openPage } from './browser.js';

/** The policy as directive → sources. */
function directives(policy: string | null): Record<string, string[]> {
  return Object.fromEntries(
    (policy ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name, sources]),
  );
}

/** `styles`: what style-src allows (the documentation's bundle needs inline styles; scripts never). */
function expectPageHeaders(response: Response, what: string, styles = ["'self'"]): void {
  const csp = directives(response.headers.get('content-security-policy'));
  expect(csp['default-src'], what).toEqual(["'self'"]);
  expect(csp['script-src'], what).toEqual(["'self'"]);
  expect(csp['style-src'], what).toEqual(styles);
  expect(csp['connect-src'], what).toEqual(["'self'"]);
  expect(csp['frame-ancestors'], what).toEqual(["'none'"]);
  expect(csp['object-src'], what).toEqual(["'none'"]);
  expect(csp['base-uri'], what).toEqual(["'self'"]);
  expect(csp['form-action'], what).toEqual(["'self'"]);
  // No other origin anywhere, and nothing that lets inline code run.
  const sources = Object.values(csp).flat();
  expect(
    sources.filter((s) => !["'self'", "'none'", 'blob:', 'data:', ...styles].includes(s)),
    what,
  ).toEqual([]);
  expect(response.headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(response.headers.get('x-frame-options'), what).toBe('DENY');
  expect(response.headers.get('referrer-policy'), what).toBe('no-referrer');
}

describe('the security headers of the dashboard and the API documentation', () => {
  let service: TestService;
  let browser: Browser;
  /** A page of another origin (another port) that frames the dashboard. */
  let framer: Server;
  let framerUrl: string;

  beforeAll(async () => {
    service = await startService('sqlite');
    browser = await launchBrowser();
    framer = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(
        '<!doctype html><title>framer</title>' +
          `<iframe name="dashboard" src="${service.url}/ui/"></iframe>` +
          `<iframe name="control" src="${service.url}/openapi.json"></iframe>`,
      );
    });
    await new Promise<void>((resolve) => framer.listen(0, '127.0.0.1', resolve));
    framerUrl = `http://127.0.0.1:${(framer.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    await browser?.close();
    if (framer) await new Promise((resolve) => framer.close(resolve));
    await service?.close();
  });

  it('are on the page, its assets, its settings and the redirect to it', async () => {
    const root = await fetch(`${service.url}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expectPageHeaders(root, 'GET /');
    const page = await fetch(`${service.url}/ui/`);
    expect(page.status).toBe(200);
    expectPageHeaders(page, 'GET /ui/');
    const html = await page.text();
    const assets = [...html.matchAll(/\/ui\/assets\/[\w.-]+\.(js|css)/g)].map(([path]) => path);
    expect(assets.map((path) => path.split('.').at(-1)).sort()).toEqual(['css', 'js']);
    for (const path of [...assets, '/ui/settings.json']) {
      const response = await fetch(service.url + path);
      expect(response.status, path).toBe(200);
      expectPageHeaders(response, path);
    }
    const missing = await fetch(`${service.url}/ui/assets/none.js`);
    expect(missing.status).toBe(404);
    expectPageHeaders(missing, 'a missing asset');
  });

  it('are met by the built page: no inline script, no inline style, nothing from another origin', async () => {
    const html = await (await fetch(`${service.url}/ui/`)).text();
    const scripts = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [tag, body] of scripts) {
      expect(tag).toMatch(/\bsrc="\/ui\/assets\//);
      expect(body.trim()).toBe('');
    }
    expect(html).not.toMatch(/<style\b|\sstyle=|\son[a-z]+=/i);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
  });

  it('are on the API documentation page, which works under its own policy', async () => {
    const docs = await fetch(`${service.url}/docs`);
    expect(docs.status).toBe(200);
    expectPageHeaders(docs, 'GET /docs', ["'self'", "'unsafe-inline'"]);
    const { context, page, record } = await openPage(browser);
    await page.goto(`${service.url}/docs`);
    await page.getByText('Start Timelapse').first().waitFor();
    await page.locator('.opblock-summary').first().click();
    await page.locator('.opblock-body').first().waitFor();
    expect(record.errors).toEqual([]);
    expect(record.foreignRequests(service.url)).toEqual([]);
    await context.close();
  });

  it('keep the API’s answers free of the page’s policy, but nosniff is on every answer', async () => {
    for (const path of ['/healthz', '/prototypes', '/measurements/1/last', '/no-such-route']) {
      const response = await fetch(service.url + path);
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(response.headers.get('content-security-policy'), path).toBeNull();
    }
  });

  it('keep another origin from showing the dashboard in a frame', async () => {
    const { context, page } = await openPage(browser);
    const refusals: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') refusals.push(message.text());
    });
    await page.goto(framerUrl);
    // The control frame (an API answer, which may be framed) loads: the framing page works.
    const control = page.frame({ name: 'control' });
    await expect.poll(() => control?.url()).toBe(`${service.url}/openapi.json`);
    // The dashboard's frame is refused: Chromium puts its error page in its place.
    const dashboard = page.frame({ name: 'dashboard' });
    await expect.poll(() => dashboard?.url()).toMatch(/^chrome-error:/);
    await expect.poll(() => refusals.join('\n')).toMatch(/frame-ancestors/);
    await context.close();
  });
});

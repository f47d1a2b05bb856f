import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { dashboardRoutes } from '../../src/dashboard/index.js';

// The dashboard's files over real HTTP, from a folder of the test's own: caching, conditional
// requests, ranges, and nothing outside the folder or hidden in it.
/** A GET with exactly these headers (fetch adds `cache-control: no-cache` to conditional requests). */
function plainGet(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    }).on('error', reject);
  });
}

describe('the dashboard’s files', () => {
  const root = mkdtempSync(join(tmpdir(), 'sensorhub-ui-'));
  const outside = mkdtempSync(join(tmpdir(), 'sensorhub-ui-outside-'));
  let app: FastifyInstance;
  let url: string;

  beforeAll(async () => {
    mkdirSync(join(root, 'assets', 'nested'), { recursive: true });
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>sensorhub</title>');
    writeFileSync(join(root, 'assets', 'app-1a2b.js'), 'console.log("sensorhub");');
    writeFileSync(join(root, 'assets', 'style-3c4d.css'), 'body{margin:0}');
    writeFileSync(join(root, 'assets', 'with space.js'), '1;');
    writeFileSync(join(root, 'assets', '.hidden.js'), 'secret');
    writeFileSync(join(root, 'secret.txt'), 'not an asset');
    writeFileSync(join(outside, 'outside.txt'), 'outside');
    app = Fastify();
    await app.register(dashboardRoutes, { config: loadConfig({}), root });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it('serves the page revalidated on every load, and assets kept for a year', async () => {
    const page = await fetch(`${url}/ui/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(await page.text()).toContain('<title>sensorhub</title>');

    const script = await fetch(`${url}/ui/assets/app-1a2b.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await script.text()).toBe('console.log("sensorhub");');
    const style = await fetch(`${url}/ui/assets/style-3c4d.css`);
    expect(style.headers.get('content-type')).toMatch(/^text\/css/);
    expect((await fetch(`${url}/ui/assets/with%20space.js`)).status).toBe(200);
  });

  it('answers a conditional request with 304, a range with 206, and HEAD without a body', async () => {
    const first = await fetch(`${url}/ui/assets/app-1a2b.js`);
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await plainGet(`${url}/ui/assets/app-1a2b.js`, { 'if-none-match': etag! });
    expect(again).toEqual({ status: 304, body: '' });
    const since = await plainGet(`${url}/ui/assets/app-1a2b.js`, { 'if-modified-since': first.headers.get('last-modified')! });
    expect(since).toEqual({ status: 304, body: '' });
    const changed = await plainGet(`${url}/ui/assets/app-1a2b.js`, { 'if-none-match': '"another"' });
    expect(changed).toEqual({ status: 200, body: 'console.log("sensorhub");' });
    const part = await fetch(`${url}/ui/assets/app-1a2b.js`, { headers: { range: 'bytes=0-6' } });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe('console');
    const head = await fetch(`${url}/ui/assets/app-1a2b.js`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String('console.log("sensorhub");'.length));
    expect(await head.text()).toBe('');
  });

  it('answers 404 for what is missing, hidden, a folder, or outside the assets', async () => {
    for (const path of [
      '/ui/assets/none.js',
      '/ui/assets/.hidden.js',
      '/ui/assets/nested',
      '/ui/assets/nested/',
      '/ui/assets/../secret.txt',
      '/ui/assets/%2e%2e/secret.txt',
      '/ui/assets/..%2fsecret.txt',
      `/ui/assets/..%2f..%2f${outside.split('/').at(-1)}%2foutside.txt`,
      '/ui/assets/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    ]) {
      const response = await fetch(url + path);
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).not.toMatch(/not an asset|^outside$|root:x/);
    }
  });

  it('says the page is not built when its folder has no index.html', async () => {
    rmSync(join(root, 'index.html'));
    const page = await fetch(`${url}/ui/`);
    expect(page.status).toBe(503);
    expect(((await page.json()) as { detail: string }).detail).toMatch(/not built/);
  });
});

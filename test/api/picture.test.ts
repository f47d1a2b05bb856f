import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTML, JPEG, PNG, WEBP } from '../helpers/images.js';
import { startService, type TestService } from '../helpers/service.js';
import { scratchDatabase, storeKinds } from '../helpers/stores.js';

async function getPicture(service: TestService) {
  const res = await fetch(`${service.url}/picture`);
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

const put = (service: TestService, bytes: Uint8Array, type: string) =>
  service.request('PUT', '/picture', { raw: bytes, headers: { 'content-type': type } });

describe.each(storeKinds())('uploaded picture (%s)', (kind) => {
  it('answers 503 before any upload, then serves each accepted type, and keeps it across a restart', async () => {
    const database = await scratchDatabase(kind);
    let service = await startService(kind, { database, env: { PICTURE_CACHE_MS: '0' } });
    try {
      const none = await getPicture(service);
      expect(none.status).toBe(503);
      expect(JSON.parse(none.bytes.toString())).toEqual({ detail: 'Camera not available.' });
      for (const [bytes, type] of [[JPEG, 'image/jpeg'], [PNG, 'image/png'], [WEBP, 'image/webp']] as const) {
        expect((await put(service, bytes, type)).status).toBe(204);
        const got = await getPicture(service);
        expect(got).toEqual({ status: 200, type, bytes });
      }
      await service.close();
      service = await startService(kind, { database });
      expect(await getPicture(service)).toEqual({ status: 200, type: 'image/webp', bytes: WEBP });
    } finally {
      await service.close();
      await database.drop();
    }
  });

  it('refuses bad uploads and keeps the previous picture', async () => {
    const service = await startService(kind, { env: { PICTURE_CACHE_MS: '0' } });
    try {
      await put(service, PNG, 'image/png');
      const notImage = await put(service, HTML, 'image/jpeg');
      expect(notImage.status).toBe(422);
      expect(notImage.body.detail[0].loc).toEqual(['body']);
      expect((await put(service, PNG, 'text/html')).status).toBe(415);
      expect((await put(service, Buffer.from('{}'), 'application/json')).status).toBe(415);
      expect((await service.request('PUT', '/picture')).status).toBe(415);
      const tooBig = Buffer.concat([JPEG, Buffer.alloc(10 * 1024 * 1024)]);
      expect((await put(service, tooBig, 'image/jpeg')).status).toBe(413);
      expect(await getPicture(service)).toEqual({ status: 200, type: 'image/png', bytes: PNG });
      // Labelled as PNG but a JPEG: stored and served as what the bytes are.
      expect((await put(service, JPEG, 'image/png')).status).toBe(204);
      expect((await getPicture(service)).type).toBe('image/jpeg');
    } finally {
      await service.close();
    }
  });
});

describe('snapshot URL camera', () => {
  let camera: Server;
  let cameraUrl: string;
  let requests = 0;
  beforeAll(async () => {
    camera = createServer((req, res) => {
      requests++;
      const reply = (status: number, type: string, body: Buffer) => {
        res.writeHead(status, { 'content-type': type });
        res.end(body);
      };
      if (req.url === '/capture') return setTimeout(() => reply(200, 'image/jpeg', JPEG), 50);
      if (req.url === '/png-as-octets') return reply(200, 'application/octet-stream', PNG);
      if (req.url === '/slow') return setTimeout(() => reply(200, 'image/jpeg', JPEG), 3000);
      if (req.url === '/broken') return reply(500, 'text/plain', Buffer.from('sensor error'));
      if (req.url === '/login') return reply(200, 'text/html', HTML);
      reply(404, 'text/plain', Buffer.from('no'));
    });
    await new Promise<void>((resolve) => camera.listen(0, '127.0.0.1', resolve));
    cameraUrl = `http://127.0.0.1:${(camera.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => camera.close(() => resolve())));

  const withSource = async (source: string, env: Record<string, string>, test: (s: TestService) => Promise<void>) => {
    const service = await startService('sqlite', { env: { PICTURE_SOURCE: source, ...env } });
    try {
      await test(service);
    } finally {
      await service.close();
    }
  };

  it('fetches the snapshot, typed from its bytes, once for twenty concurrent dashboards', async () => {
    await withSource(`${cameraUrl}/capture`, { PICTURE_CACHE_MS: '500' }, async (service) => {
      requests = 0;
      const results = await Promise.all(Array.from({ length: 20 }, () => getPicture(service)));
      expect(results.every((r) => r.status === 200 && r.type === 'image/jpeg' && r.bytes.equals(JPEG))).toBe(true);
      expect(requests).toBe(1);
      await getPicture(service);
      expect(requests).toBe(1);
      await new Promise((r) => setTimeout(r, 600));
      await getPicture(service);
      expect(requests).toBe(2);
    });
    await withSource(`${cameraUrl}/png-as-octets`, {}, async (service) => {
      expect(await getPicture(service)).toEqual({ status: 200, type: 'image/png', bytes: PNG });
    });
  });

  it.each([
    ['slower than the timeout', '/slow'],
    ['failing', '/broken'],
    ['returning HTML', '/login'],
  ])('answers 503 for a camera %s, without hanging', async (_name, path) => {
    await withSource(`${cameraUrl}${path}`, { PICTURE_TIMEOUT_MS: '300' }, async (service) => {
      const started = performance.now();
      const res = await getPicture(service);
      expect(res.status).toBe(503);
      expect(JSON.parse(res.bytes.toString())).toEqual({ detail: 'Camera not available.' });
      expect(performance.now() - started).toBeLessThan(2000);
    });
  });

  it('answers 503 for a camera that is down', async () => {
    const down = createServer();
    await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', resolve));
    const port = (down.address() as AddressInfo).port;
    await new Promise<void>((resolve) => down.close(() => resolve()));
    await withSource(`http://127.0.0.1:${port}/capture`, {}, async (service) => {
      expect((await getPicture(service)).status).toBe(503);
    });
  });
});

describe('file and command cameras', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'sensorhub-pictures-'));
    writeFileSync(join(dir, 'a.jpg'), JPEG);
    writeFileSync(join(dir, 'b.png'), PNG);
    writeFileSync(join(dir, 'notes.txt'), 'not an image');
    const t = Date.now() / 1000;
    utimesSync(join(dir, 'a.jpg'), t - 300, t - 300);
    utimesSync(join(dir, 'b.png'), t - 60, t - 60);
    utimesSync(join(dir, 'notes.txt'), t, t);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const serve = async (source: string, env: Record<string, string> = {}) => {
    const service = await startService('sqlite', { env: { PICTURE_SOURCE: source, PICTURE_CACHE_MS: '0', ...env } });
    try {
      const started = performance.now();
      return { ...(await getPicture(service)), ms: performance.now() - started };
    } finally {
      await service.close();
    }
  };

  it('serves a file, and the newest image of a folder', async () => {
    expect(await serve(`file:${join(dir, 'a.jpg')}`)).toMatchObject({ status: 200, type: 'image/jpeg' });
    expect(await serve(`file:${dir}`)).toMatchObject({ status: 200, type: 'image/png', bytes: PNG });
    expect((await serve(`file:${join(dir, 'notes.txt')}`)).status).toBe(503);
    expect((await serve(`file:${join(dir, 'missing.jpg')}`)).status).toBe(503);
    const empty = mkdtempSync(join(tmpdir(), 'sensorhub-empty-'));
    expect((await serve(`file:${empty}`)).status).toBe(503);
    rmSync(empty, { recursive: true });
  });

  it('serves what a command prints, and 503 when it fails or runs over', async () => {
    expect(await serve(`exec:cat ${join(dir, 'b.png')}`)).toMatchObject({ status: 200, type: 'image/png', bytes: PNG });
    expect((await serve('exec:false')).status).toBe(503);
    expect((await serve('exec:echo not an image')).status).toBe(503);
    const slow = await serve('exec:sleep 5', { PICTURE_TIMEOUT_MS: '300' });
    expect(slow.status).toBe(503);
    expect(slow.ms).toBeLessThan(2000);
  });
});

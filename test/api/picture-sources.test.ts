import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FAKE_IMAGES, HTML, JPEG, PNG, WEBP } from '../helpers/images.js';
import { startService, type TestService } from '../helpers/service.js';
import { type ScratchDatabase, scratchDatabase, storeKinds } from '../helpers/stores.js';

async function getPicture(service: TestService) {
  const res = await fetch(`${service.url}/picture`);
  const bytes = Buffer.from(await res.arrayBuffer());
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    cacheControl: res.headers.get('cache-control'),
    bytes,
  };
}

/** One database per store kind for the whole file: the sources do not depend on what is stored. */
const databases = new Map<string, ScratchDatabase>();
afterAll(async () => {
  for (const database of databases.values()) await database.drop();
});

async function withService(kind: Parameters<typeof startService>[0], env: Record<string, string>, test: (s: TestService) => Promise<void>) {
  if (!databases.has(kind)) databases.set(kind, await scratchDatabase(kind));
  const service = await startService(kind, { env, database: databases.get(kind) });
  try {
    await test(service);
  } finally {
    await service.close();
  }
}

function expectUnavailable(res: Awaited<ReturnType<typeof getPicture>>) {
  expect(res.status).toBe(503);
  expect(res.cacheControl).toBe('no-store');
  expect(JSON.parse(res.bytes.toString())).toEqual({ detail: 'Camera not available.' });
}

/** A camera on a real port: each path behaves like one kind of camera, and every request is counted. */
let camera: Server;
let cameraUrl: string;
const requests: Record<string, number> = {};
const count = (path: string) => requests[path] ?? 0;

beforeAll(async () => {
  camera = createServer((req, res) => {
    const path = req.url ?? '';
    requests[path] = count(path) + 1;
    const reply = (status: number, type: string, body: Buffer) => {
      res.writeHead(status, { 'content-type': type });
      res.end(body);
    };
    switch (path) {
      case '/capture':
        return void setTimeout(() => reply(200, 'image/jpeg', JPEG), 50);
      case '/png-as-octets':
        return reply(200, 'application/octet-stream', PNG);
      case '/webp':
        return reply(200, 'image/webp', WEBP);
      case '/moved':
        res.writeHead(302, { location: '/webp' });
        return void res.end();
      case '/hop-1':
      case '/hop-2':
        res.writeHead(307, { location: `/hop-${Number(path.slice(5)) + 1}` });
        return void res.end();
      case '/hop-3':
        res.writeHead(301, { location: `${cameraUrl}/png-as-octets` });
        return void res.end();
      case '/hop-0':
        res.writeHead(302, { location: '/hop-1' });
        return void res.end();
      case '/loop':
        res.writeHead(302, { location: '/loop' });
        return void res.end();
      case '/to-other-scheme':
        res.writeHead(302, { location: `ftp://127.0.0.1/webp` });
        return void res.end();
      case '/to-https':
        res.writeHead(302, { location: cameraUrl.replace('http:', 'https:') + '/webp' });
        return void res.end();
      case '/slow':
        return void setTimeout(() => reply(200, 'image/jpeg', JPEG), 3000);
      case '/stalls':
        // Starts a picture and never finishes it.
        res.writeHead(200, { 'content-type': 'image/jpeg' });
        return void res.write(JPEG.subarray(0, 4));
      case '/broken':
        return void setTimeout(() => reply(500, 'text/plain', Buffer.from('sensor error')), 50);
      case '/broken-image':
        return reply(500, 'image/jpeg', JPEG);
      case '/login':
        return reply(200, 'text/html', HTML);
      case '/empty':
        return reply(200, 'image/jpeg', Buffer.alloc(0));
      case '/huge':
        return reply(200, 'image/jpeg', Buffer.concat([JPEG, Buffer.alloc(11 * 1024 * 1024)]));
      case '/huge-chunked': {
        // No Content-Length: the size is only known while reading.
        res.writeHead(200, { 'content-type': 'image/jpeg' });
        res.write(JPEG);
        for (let i = 0; i < 11; i++) res.write(Buffer.alloc(1024 * 1024));
        return void res.end();
      }
      default:
        if (path.startsWith('/fake/')) return reply(200, 'image/jpeg', FAKE_IMAGES[decodeURIComponent(path.slice(6))]);
        return reply(404, 'text/plain', Buffer.from('no such path'));
    }
  });
  await new Promise<void>((resolve) => camera.listen(0, '127.0.0.1', resolve));
  cameraUrl = `http://127.0.0.1:${(camera.address() as AddressInfo).port}`;
});
afterAll(async () => {
  camera.closeAllConnections();
  await new Promise<void>((resolve) => camera.close(() => resolve()));
});

describe.each(storeKinds())('snapshot URL camera (%s)', (kind) => {
  it('fetches the snapshot once for twenty concurrent dashboards, and again once the cache expires', async () => {
    await withService(kind, { PICTURE_SOURCE: `${cameraUrl}/capture`, PICTURE_CACHE_MS: '500' }, async (service) => {
      service.clock.now = 1_000_000;
      const before = count('/capture');
      const twenty = await Promise.all(Array.from({ length: 20 }, () => getPicture(service)));
      for (const res of twenty) expect(res).toMatchObject({ status: 200, type: 'image/jpeg', cacheControl: 'no-store', bytes: JPEG });
      expect(count('/capture')).toBe(before + 1);

      service.clock.now += 499;
      await Promise.all(Array.from({ length: 5 }, () => getPicture(service)));
      expect(count('/capture')).toBe(before + 1);

      service.clock.now += 1;
      const again = await Promise.all(Array.from({ length: 20 }, () => getPicture(service)));
      expect(again.every((r) => r.status === 200 && r.bytes.equals(JPEG))).toBe(true);
      expect(count('/capture')).toBe(before + 2);
    });
  });

  it('asks the camera on every request when PICTURE_CACHE_MS is 0, still one capture for concurrent requests', async () => {
    await withService(kind, { PICTURE_SOURCE: `${cameraUrl}/capture`, PICTURE_CACHE_MS: '0' }, async (service) => {
      const before = count('/capture');
      await Promise.all(Array.from({ length: 10 }, () => getPicture(service)));
      expect(count('/capture')).toBe(before + 1);
      await getPicture(service);
      await getPicture(service);
      expect(count('/capture')).toBe(before + 3);
    });
  });

  it.each([
    ['/png-as-octets', 'image/png', PNG],
    ['/webp', 'image/webp', WEBP],
    ['/moved', 'image/webp', WEBP],
    ['/hop-1', 'image/png', PNG],
  ])('types %s from its bytes, whatever the camera says', async (path, type, bytes) => {
    await withService(kind, { PICTURE_SOURCE: `${cameraUrl}${path}` }, async (service) => {
      expect(await getPicture(service)).toMatchObject({ status: 200, type, bytes });
    });
  });

  it.each([
    ['slower than the timeout', '/slow'],
    ['that stalls in the middle of the image', '/stalls'],
    ['that fails', '/broken'],
    ['that fails with an image', '/broken-image'],
    ['returning HTML', '/login'],
    ['returning nothing', '/empty'],
    ['sending more than 10 MiB', '/huge'],
    ['sending more than 10 MiB without a length', '/huge-chunked'],
    ['answering 404', '/nothing-here'],
    ['redirecting more than three times', '/hop-0'],
    ['redirecting for ever', '/loop'],
    ['redirecting to another scheme', '/to-other-scheme'],
    ['redirecting from http to https', '/to-https'],
    ...Object.keys(FAKE_IMAGES).map((name) => [`sending ${name}`, `/fake/${encodeURIComponent(name)}`]),
  ])('answers 503 for a camera %s', async (_name, path) => {
    await withService(kind, { PICTURE_SOURCE: `${cameraUrl}${path}`, PICTURE_TIMEOUT_MS: '300' }, async (service) => {
      expectUnavailable(await getPicture(service));
    });
  });

  it('answers 503 for a camera that is down', async () => {
    const down = createServer();
    await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', resolve));
    const port = (down.address() as AddressInfo).port;
    await new Promise<void>((resolve) => down.close(() => resolve()));
    await withService(kind, { PICTURE_SOURCE: `http://127.0.0.1:${port}/capture` }, async (service) => {
      expectUnavailable(await getPicture(service));
    });
  });

  it('shares one failed capture among concurrent requests and asks again after a second', async () => {
    await withService(kind, { PICTURE_SOURCE: `${cameraUrl}/broken`, PICTURE_CACHE_MS: '5000' }, async (service) => {
      service.clock.now = 1_000_000;
      const before = count('/broken');
      const twenty = await Promise.all(Array.from({ length: 20 }, () => getPicture(service)));
      for (const res of twenty) expectUnavailable(res);
      expect(count('/broken')).toBe(before + 1);
      service.clock.now += 999;
      expectUnavailable(await getPicture(service));
      expect(count('/broken')).toBe(before + 1);
      service.clock.now += 1;
      expectUnavailable(await getPicture(service));
      expect(count('/broken')).toBe(before + 2);
    });
  });

  it('still stores an upload while a source is set, but serves the source', async () => {
    await withService(kind, { PICTURE_SOURCE: `${cameraUrl}/webp`, PICTURE_CACHE_MS: '0' }, async (service) => {
      const res = await service.request('PUT', '/picture', { raw: PNG, headers: { 'content-type': 'image/png' } });
      expect(res.status).toBe(204);
      expect((await service.store.pictures.get())?.content_type).toBe('image/png');
      expect(await getPicture(service)).toMatchObject({ status: 200, type: 'image/webp', bytes: WEBP });
    });
  });
});

describe.each(storeKinds())('file and command cameras (%s)', (kind) => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sensorhub-pictures-'));
    const t = Date.now() / 1000;
    const write = (name: string, bytes: Buffer | string, age: number) => {
      writeFileSync(join(dir, name), bytes);
      utimesSync(join(dir, name), t - age, t - age);
    };
    write('a.jpg', JPEG, 300);
    write('b.png', PNG, 60);
    // Newer than every image, but not images: skipped by their bytes, whatever their names say.
    write('notes.txt', 'not an image', 10);
    write('c.jpg', HTML, 5);
    mkdirSync(join(dir, 'newest-folder'));
    return () => rmSync(dir, { recursive: true, force: true });
  });

  const serve = async (source: string, env: Record<string, string> = {}) => {
    let result: Awaited<ReturnType<typeof getPicture>> | undefined;
    await withService(kind, { PICTURE_SOURCE: source, PICTURE_CACHE_MS: '0', ...env }, async (service) => {
      result = await getPicture(service);
    });
    return result as Awaited<ReturnType<typeof getPicture>>;
  };

  it('serves a file', async () => {
    expect(await serve(`file:${join(dir, 'a.jpg')}`)).toMatchObject({
      status: 200,
      type: 'image/jpeg',
      cacheControl: 'no-store',
      bytes: JPEG,
    });
    expect(await serve(`file://${join(dir, 'b.png')}`)).toMatchObject({ status: 200, type: 'image/png', bytes: PNG });
    expectUnavailable(await serve(`file:${join(dir, 'notes.txt')}`));
    expectUnavailable(await serve(`file:${join(dir, 'c.jpg')}`));
    expectUnavailable(await serve(`file:${join(dir, 'missing.jpg')}`));
  });

  it('serves the newest image of a folder, and follows new images as they arrive', async () => {
    await withService(kind, { PICTURE_SOURCE: `file:${dir}`, PICTURE_CACHE_MS: '0' }, async (service) => {
      expect(await getPicture(service)).toMatchObject({ status: 200, type: 'image/png', bytes: PNG });
      writeFileSync(join(dir, 'd.webp'), WEBP);
      expect(await getPicture(service)).toMatchObject({ status: 200, type: 'image/webp', bytes: WEBP });
      // Modification time decides, not the name.
      const future = Date.now() / 1000 + 60;
      utimesSync(join(dir, 'a.jpg'), future, future);
      expect(await getPicture(service)).toMatchObject({ status: 200, type: 'image/jpeg', bytes: JPEG });
    });
  });

  it('answers 503 for a folder without images', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'sensorhub-empty-'));
    try {
      expectUnavailable(await serve(`file:${empty}`));
      writeFileSync(join(empty, 'readme.txt'), 'images go here');
      expectUnavailable(await serve(`file:${empty}`));
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it.each(Object.entries(FAKE_IMAGES))('answers 503 for a file or a command that gives %s', async (_name, bytes) => {
    writeFileSync(join(dir, 'fake.jpg'), bytes);
    expectUnavailable(await serve(`file:${join(dir, 'fake.jpg')}`));
    expectUnavailable(await serve(`exec:cat ${join(dir, 'fake.jpg')}`));
  });

  it('skips a newest image that is incomplete or a link out of the folder', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'sensorhub-outside-'));
    try {
      writeFileSync(join(outside, 'secret.webp'), WEBP);
      symlinkSync(join(outside, 'secret.webp'), join(dir, 'newest-link.webp'));
      writeFileSync(join(dir, 'half-written.jpg'), JPEG.subarray(0, JPEG.length - 40));
      expect(await serve(`file:${dir}`)).toMatchObject({ status: 200, type: 'image/png', bytes: PNG });
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('never opens a FIFO, so password hashing keeps its threads, and /healthz tells the picture state', async () => {
    const fifo = join(dir, 'camera.jpg');
    execFileSync('mkfifo', [fifo]);
    // A FIFO as the newest entry of a folder is skipped like any non-file.
    execFileSync('mkfifo', [join(dir, 'zz-newest.jpg')]);
    expect(await serve(`file:${dir}`)).toMatchObject({ status: 200, type: 'image/png', bytes: PNG });

    await withService(kind, { PICTURE_SOURCE: `file:${fifo}`, PICTURE_CACHE_MS: '0', PICTURE_TIMEOUT_MS: '200' }, async (service) => {
      expect((await service.get('/healthz')).body).toEqual({ status: 'ok', picture: 'unknown', backup: null, dosing: 'ok' });
      // More captures than libuv has pool threads: an open() that waited for a writer would hold one each.
      for (let i = 0; i < 8; i++) expectUnavailable(await getPicture(service));
      const health = await service.get('/healthz');
      expect(health.status).toBe(200);
      expect(health.body).toEqual({ status: 'ok', picture: 'failing', backup: null, dosing: 'ok' });

      const form = (fields: Record<string, string>) => ({
        raw: new URLSearchParams(fields).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      const name = `fifo-${kind}-${Date.now()}`;
      const created = await service.request('POST', '/users/new/', form({ username: name, password: 'correct horse' }));
      expect(created.status).toBe(200);
      const token = await service.request('POST', '/token', form({ username: name, password: 'correct horse' }));
      expect(token.status).toBe(200);
      expect(token.body.token_type).toBe('bearer');
    });

    await withService(kind, { PICTURE_SOURCE: `file:${join(dir, 'b.png')}`, PICTURE_CACHE_MS: '0' }, async (service) => {
      expect(await getPicture(service)).toMatchObject({ status: 200, bytes: PNG });
      expect((await service.get('/healthz')).body).toEqual({ status: 'ok', picture: 'ok', backup: null, dosing: 'ok' });
    });
    await withService(kind, {}, async (service) => {
      expect((await service.get('/healthz')).body).toEqual({ status: 'ok', picture: 'none', backup: null, dosing: 'ok' });
    });
  });

  it('serves what a command prints, through the shell', async () => {
    expect(await serve(`exec:cat ${join(dir, 'b.png')}`)).toMatchObject({
      status: 200,
      type: 'image/png',
      cacheControl: 'no-store',
      bytes: PNG,
    });
    expect(await serve(`exec:cat "${join(dir, 'a.jpg')}" | cat`)).toMatchObject({ status: 200, type: 'image/jpeg', bytes: JPEG });
  });

  it.each([
    ['fails', 'exec:false'],
    ['prints an image but fails', 'exec:cat PNGFILE; exit 3'],
    ['prints text', 'exec:echo not an image'],
    ['prints nothing', 'exec:true'],
    ['does not exist', 'exec:no-such-camera-tool --capture'],
  ])('answers 503 for a command that %s', async (_name, source) => {
    expectUnavailable(await serve(source.replace('PNGFILE', join(dir, 'b.png'))));
  });

  // Commands that would run for ten minutes, far past the test's own limit: an answer at all is the time limit at work.
  it('answers 503 at the time limit for a command that runs over, and kills what it started', async () => {
    expectUnavailable(await serve('exec:sleep 600', { PICTURE_TIMEOUT_MS: '300' }));

    const pidFile = join(dir, 'camera.pid');
    expectUnavailable(await serve(`exec:sleep 600 & echo $! > ${pidFile}; wait`, { PICTURE_TIMEOUT_MS: '300' }));
    const pid = Number(readFileSync(pidFile, 'utf8'));
    await expect.poll(() => isRunning(pid), { timeout: 2000 }).toBe(false);
  });
});

/** Alive and not a zombie waiting to be reaped. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

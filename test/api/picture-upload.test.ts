import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_IMAGES, GIF, HTML, JPEG, PNG, pngOfSize, WEBP, WEBP_EXTENDED, WEBP_LOSSLESS } from '../helpers/images.js';
import { startService, type TestService } from '../helpers/service.js';
import { scratchDatabase, storeKinds } from '../helpers/stores.js';

const MiB = 1024 * 1024;

async function getPicture(service: TestService, token?: string) {
  const res = await fetch(`${service.url}/picture`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    cacheControl: res.headers.get('cache-control'),
    bytes: Buffer.from(await res.arrayBuffer()),
  };
}

const upload = (service: TestService, bytes: Uint8Array | undefined, type: string | undefined, token?: string) =>
  service.request('PUT', '/picture', { raw: bytes, headers: type ? { 'content-type': type } : {}, token });

/** What the store holds, to prove a refused upload wrote nothing. */
async function stored(service: TestService) {
  const row = await service.store.pictures.get();
  return row && { bytes: Buffer.from(row.bytes), type: row.content_type, at: row.updated_at };
}

describe.each(storeKinds())('uploaded picture (%s)', (kind) => {
  it('answers 503 before any upload, then serves each accepted type, and keeps it across a restart', async () => {
    const database = await scratchDatabase(kind);
    let service = await startService(kind, { database, env: { PICTURE_CACHE_MS: '0' } });
    try {
      const none = await getPicture(service);
      expect(none.status).toBe(503);
      expect(none.type).toMatch(/^application\/json/);
      expect(none.cacheControl).toBe('no-store');
      expect(JSON.parse(none.bytes.toString())).toEqual({ detail: 'Camera not available.' });
      expect(await stored(service)).toBeUndefined();

      const accepted = [
        [JPEG, 'image/jpeg'],
        [PNG, 'image/png'],
        [WEBP, 'image/webp'],
        [WEBP_LOSSLESS, 'image/webp'],
        [WEBP_EXTENDED, 'image/webp'],
      ] as const;
      for (const [bytes, type] of accepted) {
        const res = await upload(service, bytes, type);
        expect(res.status).toBe(204);
        expect(res.text).toBe('');
        expect(await getPicture(service)).toEqual({ status: 200, type, cacheControl: 'no-store', bytes });
      }
      // A content-type parameter does not matter.
      expect((await upload(service, PNG, 'image/png; name=tank.png')).status).toBe(204);
      expect((await getPicture(service)).bytes).toEqual(PNG);

      service.clock.now = Date.parse('2026-11-22T09:30:00.000Z');
      expect((await upload(service, WEBP, 'image/webp')).status).toBe(204);
      expect(await stored(service)).toEqual({ bytes: WEBP, type: 'image/webp', at: service.clock.now });

      await service.close();
      service = await startService(kind, { database });
      expect(await getPicture(service)).toEqual({ status: 200, type: 'image/webp', cacheControl: 'no-store', bytes: WEBP });
    } finally {
      await service.close();
      await database.drop();
    }
  });

  it('stores and serves a body labelled with another accepted type as what its bytes are', async () => {
    const service = await startService(kind, { env: { PICTURE_CACHE_MS: '0' } });
    try {
      expect((await upload(service, JPEG, 'image/png')).status).toBe(204);
      expect(await getPicture(service)).toMatchObject({ status: 200, type: 'image/jpeg', bytes: JPEG });
      expect((await stored(service))?.type).toBe('image/jpeg');
    } finally {
      await service.close();
    }
  });

  it('accepts exactly 10 MiB', async () => {
    const service = await startService(kind, { env: { PICTURE_CACHE_MS: '0' } });
    try {
      const largest = pngOfSize(10 * MiB);
      expect((await upload(service, largest, 'image/png')).status).toBe(204);
      const got = await getPicture(service);
      expect(got.status).toBe(200);
      expect(got.bytes.equals(largest)).toBe(true);
    } finally {
      await service.close();
    }
  });

  describe('refused uploads change nothing', () => {
    let service: TestService;
    beforeAll(async () => {
      service = await startService(kind, { env: { PICTURE_CACHE_MS: '0' } });
      service.clock.now = Date.parse('2026-11-22T08:00:00.000Z');
      expect((await upload(service, PNG, 'image/png')).status).toBe(204);
      // Anything written by a refused upload would carry this later time.
      service.clock.now = Date.parse('2026-11-22T09:00:00.000Z');
    });
    afterAll(() => service?.close());

    it.each([
      ['an HTML page', PNG, 'text/html', 415],
      ['a JSON body', Buffer.from('{"picture": "x"}'), 'application/json', 415],
      ['a form', Buffer.from('picture=x'), 'application/x-www-form-urlencoded', 415],
      ['plain text', Buffer.from('hello'), 'text/plain', 415],
      ['octet-stream bytes', JPEG, 'application/octet-stream', 415],
      ['an image type that is not accepted', GIF, 'image/gif', 415],
      ['no content type and no body', undefined, undefined, 415],
      ['HTML labelled as JPEG', HTML, 'image/jpeg', 422],
      ['a GIF labelled as PNG', GIF, 'image/png', 422],
      ['an empty WebP body', Buffer.alloc(0), 'image/webp', 422],
      ['a truncated PNG signature', PNG.subarray(0, 5), 'image/png', 422],
      ['a JPEG over 10 MiB', Buffer.concat([JPEG, Buffer.alloc(10 * MiB)]), 'image/jpeg', 413],
      ['a PNG one byte over 10 MiB', Buffer.concat([PNG, Buffer.alloc(10 * MiB - PNG.length + 1)]), 'image/png', 413],
    ] as const)('%s → %i', async (_name, bytes, type, status) => {
      const before = await stored(service);
      const res = await upload(service, bytes, type);
      expect(res.status).toBe(status);
      if (status === 422) {
        expect(res.body.detail).toEqual([{ loc: ['body'], msg: 'The body is not a JPEG, PNG or WebP image', type: 'image_type' }]);
      } else {
        expect(typeof res.body.detail).toBe('string');
      }
      expect(await stored(service)).toEqual(before);
      expect(before).toMatchObject({ bytes: PNG, type: 'image/png', at: Date.parse('2026-11-22T08:00:00.000Z') });
      expect(await getPicture(service)).toMatchObject({ status: 200, type: 'image/png', bytes: PNG });
    });

    it.each(Object.entries(FAKE_IMAGES))('refuses %s with 422 image_incomplete and keeps the picture', async (_name, bytes) => {
      const before = await stored(service);
      const res = await upload(service, bytes, 'image/jpeg');
      expect(res.status).toBe(422);
      expect(res.body.detail).toEqual([
        { loc: ['body'], msg: expect.stringMatching(/^The body is not a complete image: /), type: 'image_incomplete' },
      ]);
      expect(await stored(service)).toEqual(before);
      expect(await getPicture(service)).toMatchObject({ status: 200, type: 'image/png', bytes: PNG });
    });
  });

  describe('cache', () => {
    let service: TestService;
    beforeAll(async () => {
      service = await startService(kind, { env: { PICTURE_CACHE_MS: '60000' } });
    });
    afterAll(() => service?.close());

    it('serves the upload from memory for PICTURE_CACHE_MS, and a new upload at once', async () => {
      service.clock.now = 1_000_000;
      // "Nothing uploaded" is a failure: it is not kept past an upload.
      expect((await getPicture(service)).status).toBe(503);
      expect((await upload(service, PNG, 'image/png')).status).toBe(204);
      expect((await getPicture(service)).bytes).toEqual(PNG);

      // Written behind the service's back (as another process on the same database would):
      // this process keeps serving what it read until the cache expires.
      await service.store.pictures.put(WEBP, 'image/webp', service.clock.now);
      expect((await getPicture(service)).bytes).toEqual(PNG);
      service.clock.now += 59_999;
      expect((await getPicture(service)).bytes).toEqual(PNG);
      service.clock.now += 1;
      expect(await getPicture(service)).toMatchObject({ status: 200, type: 'image/webp', bytes: WEBP });

      // An upload through this process replaces the cached picture immediately.
      expect((await upload(service, JPEG, 'image/jpeg')).status).toBe(204);
      expect(await getPicture(service)).toMatchObject({ status: 200, type: 'image/jpeg', bytes: JPEG });
      const twenty = await Promise.all(Array.from({ length: 20 }, () => getPicture(service)));
      expect(twenty.every((r) => r.status === 200 && r.bytes.equals(JPEG))).toBe(true);
    });
  });

  describe('AUTH_MODE=enforced', () => {
    let service: TestService;
    const tokens: Record<string, string> = {};
    beforeAll(async () => {
      service = await startService(kind, { env: { AUTH_MODE: 'enforced', PICTURE_CACHE_MS: '0' } });
      const { tokenSecret, tokenService } = await import('../../src/auth/tokens.js');
      const issuer = tokenService(await tokenSecret(undefined, service.store.settings), 3600_000);
      for (const [name, permissions] of [
        ['device', 1],
        ['reader', 2],
        ['editor', 6],
      ] as const) {
        const user = await service.store.users.create({ username: name, password_hash: 'x', permissions, created_at: Date.now() });
        tokens[name] = await issuer.issue(user!, Date.now());
      }
    });
    afterAll(() => service?.close());

    it('needs read to see the picture and modify to upload one', async () => {
      expect((await upload(service, PNG, 'image/png')).status).toBe(401);
      expect((await upload(service, PNG, 'image/png', tokens.device)).status).toBe(403);
      expect((await upload(service, PNG, 'image/png', tokens.reader)).status).toBe(403);
      expect(await stored(service)).toBeUndefined();
      expect((await upload(service, PNG, 'image/png', tokens.editor)).status).toBe(204);

      expect((await getPicture(service)).status).toBe(401);
      expect((await getPicture(service, tokens.device)).status).toBe(403);
      expect(await getPicture(service, tokens.reader)).toMatchObject({ status: 200, type: 'image/png', bytes: PNG });
    });
  });
});

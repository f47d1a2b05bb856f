import { describe, expect, it } from 'vitest';
import { detectImageType, inspectImage } from '../../src/picture/image-type.js';
import { FAKE_IMAGES, GIF, HTML, JPEG, PNG, pngOfSize, WEBP, WEBP_EXTENDED, WEBP_LOSSLESS } from '../helpers/images.js';

describe('detectImageType', () => {
  it('recognises JPEG, PNG and WebP by their bytes', () => {
    expect(detectImageType(JPEG)).toBe('image/jpeg');
    expect(detectImageType(PNG)).toBe('image/png');
    expect(detectImageType(WEBP)).toBe('image/webp');
  });

  it('needs only the signature, and reads plain byte arrays too', () => {
    expect(detectImageType(new Uint8Array([0xff, 0xd8, 0xff]))).toBe('image/jpeg');
    expect(detectImageType(new Uint8Array(PNG.subarray(0, 8)))).toBe('image/png');
    expect(detectImageType(WEBP.subarray(0, 12))).toBe('image/webp');
  });

  it('rejects everything else', () => {
    expect(detectImageType(HTML)).toBeUndefined();
    expect(detectImageType(GIF)).toBeUndefined();
    expect(detectImageType(Buffer.alloc(0))).toBeUndefined();
    expect(detectImageType(Buffer.alloc(64))).toBeUndefined();
    expect(detectImageType(JPEG.subarray(0, 2))).toBeUndefined();
    expect(detectImageType(PNG.subarray(0, 7))).toBeUndefined();
    expect(detectImageType(WEBP.subarray(0, 11))).toBeUndefined();
    expect(detectImageType(Buffer.from('RIFF\0\0\0\0WAVEfmt '))).toBeUndefined();
    expect(detectImageType(Buffer.from('{"detail": "image/png"}'))).toBeUndefined();
  });

  it('looks at the start only: a signature further in is not an image', () => {
    expect(detectImageType(Buffer.concat([Buffer.from(' '), PNG]))).toBeUndefined();
  });
});

describe('inspectImage', () => {
  it.each([
    ['JPEG', JPEG, 'image/jpeg'],
    ['PNG', PNG, 'image/png'],
    ['lossy WebP (VP8)', WEBP, 'image/webp'],
    ['lossless WebP (VP8L)', WEBP_LOSSLESS, 'image/webp'],
    ['extended WebP (VP8X)', WEBP_EXTENDED, 'image/webp'],
    ['a padded PNG', pngOfSize(4096), 'image/png'],
  ] as const)('reads the type and dimensions of a complete %s', (_name, bytes, type) => {
    expect(inspectImage(bytes)).toEqual({ ok: true, image: { type, width: 2, height: 2 } });
  });

  it('reads dimensions from the header, not a guess', () => {
    const wide = Buffer.from(PNG);
    wide.writeUInt32BE(640, 16);
    wide.writeUInt32BE(480, 20);
    expect(inspectImage(wide)).toEqual({ ok: true, image: { type: 'image/png', width: 640, height: 480 } });
  });

  it.each(Object.entries(FAKE_IMAGES))('refuses %s, saying why', (_name, bytes) => {
    const check = inspectImage(bytes);
    expect(check.ok).toBe(false);
    expect(check.ok ? '' : check.problem).toMatch(/JPEG|PNG|WebP/);
  });

  it('refuses every prefix of a real image', () => {
    for (const image of [JPEG, PNG, WEBP, WEBP_LOSSLESS, WEBP_EXTENDED]) {
      for (let length = 0; length < image.length; length++) expect(inspectImage(image.subarray(0, length)).ok).toBe(false);
    }
  });

  it('refuses what is no image of these types', () => {
    for (const bytes of [HTML, GIF, Buffer.alloc(0), Buffer.alloc(64)])
      expect(inspectImage(bytes)).toEqual({ ok: false, problem: 'not a JPEG, PNG or WebP image' });
  });
});

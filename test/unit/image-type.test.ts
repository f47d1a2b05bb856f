import { describe, expect, it } from 'vitest';
import { detectImageType } from '../../src/picture/image-type.js';
import { GIF, HTML, JPEG, PNG, WEBP } from '../helpers/images.js';

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

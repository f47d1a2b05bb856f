import { describe, expect, it } from 'vitest';
import { detectImageType } from '../../src/picture/image-type.js';
import { HTML, JPEG, PNG, WEBP } from '../helpers/images.js';

describe('detectImageType', () => {
  it('recognises JPEG, PNG and WebP by their bytes', () => {
    expect(detectImageType(JPEG)).toBe('image/jpeg');
    expect(detectImageType(PNG)).toBe('image/png');
    expect(detectImageType(WEBP)).toBe('image/webp');
  });

  it('rejects everything else', () => {
    expect(detectImageType(HTML)).toBeUndefined();
    expect(detectImageType(Buffer.alloc(0))).toBeUndefined();
    expect(detectImageType(PNG.subarray(0, 7))).toBeUndefined();
    expect(detectImageType(Buffer.from('RIFF\0\0\0\0WAVEfmt '))).toBeUndefined();
    expect(detectImageType(Buffer.from('GIF89a'))).toBeUndefined();
  });
});

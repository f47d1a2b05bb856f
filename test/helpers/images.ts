/**
 * Real, tiny images (2×2 pixels, made with ffmpeg): complete files whose headers give their
 * dimensions, as the service requires of every picture it serves or stores.
 */
export const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAgAAAQABAAD//gAQTGF2YzU5LjM3LjEwMAD/2wBDAAgEBAQEBAUFBQUFBQYGBgYGBgYGBgYGBgYHBwcICAgHBwcGBgcHCAgICAkJCQgICAgJCQoKCgwMCwsODg4RERT/xABMAAEBAAAAAAAAAAAAAAAAAAAABgEBAQAAAAAAAAAAAAAAAAAABgcQAQAAAAAAAAAAAAAAAAAAAAARAQAAAAAAAAAAAAAAAAAAAAD/wAARCAACAAIDASIAAhEAAxEA/9oADAMBAAIRAxEAPwCLAFF/f//Z',
  'base64',
);
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAABAAAAAQBPJcTWAAAAD0lEQVR4nGNgYPgHRmAKABfeA/n0AEaqAAAAAElFTkSuQmCC',
  'base64',
);
/** Lossy WebP (a VP8 chunk). */
export const WEBP = Buffer.from('UklGRjgAAABXRUJQVlA4ICwAAADQAQCdASoCAAIAAgA0JaACdLoB+AADsAD+8Oj3/yC5YXXI1/5sCua5+agAAA==', 'base64');
/** Lossless WebP (a VP8L chunk). */
export const WEBP_LOSSLESS = Buffer.from('UklGRhwAAABXRUJQVlA4TA8AAAAvAUAAAAdQwMz+ByKi/wEA', 'base64');
/** Extended WebP: a VP8X header (canvas 2×2) before the lossy frame. */
export const WEBP_EXTENDED = (() => {
  const vp8x = Buffer.concat([Buffer.from('VP8X'), Buffer.from([10, 0, 0, 0]), Buffer.from([0, 0, 0, 0, 1, 0, 0, 1, 0, 0])]);
  const frame = WEBP.subarray(12);
  const body = Buffer.concat([Buffer.from('WEBP'), vp8x, frame]);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(body.length);
  return Buffer.concat([Buffer.from('RIFF'), size, body]);
})();

/** An image, but not of a type the service accepts. */
export const GIF = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
export const HTML = Buffer.from('<!doctype html><title>login</title>');

/** Bytes that start like an image and are not one: the magic alone, or a real image cut short. */
export const FAKE_IMAGES: Record<string, Buffer> = {
  'a 5-byte JPEG': Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00]),
  'JPEG magic followed by text': Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.from('command not found'), Buffer.from([0xff, 0xd9])]),
  'a JPEG cut before its end marker': JPEG.subarray(0, JPEG.length - 20),
  'a JPEG without a frame header': Buffer.concat([JPEG.subarray(0, 20), Buffer.from([0xff, 0xda, 0, 2, 0xff, 0xd9])]),
  'a 4-byte PNG': Buffer.from([0x89, 0x50, 0x4e, 0x47]),
  'PNG magic alone': PNG.subarray(0, 8),
  'a PNG cut before IEND': PNG.subarray(0, PNG.length - 12),
  'a PNG of zero width': (() => {
    const png = Buffer.from(PNG);
    png.writeUInt32BE(0, 16);
    return png;
  })(),
  'WebP magic alone': Buffer.concat([Buffer.from('RIFF'), Buffer.from([4, 0, 0, 0]), Buffer.from('WEBP')]),
  'a WebP cut short': WEBP.subarray(0, WEBP.length - 10),
  'a WebP without a frame': (() => {
    const webp = Buffer.from(WEBP);
    webp.write('XXXX', 12);
    return webp;
  })(),
};

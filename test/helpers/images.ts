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

/** Bytes with an image's magic that are no image: the magic alone, something else after it, or a real image cut short. */
export const FAKE_IMAGES: Record<string, Buffer> = {
  'a 5-byte JPEG': Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00]),
  'JPEG magic followed by text': Buffer.concat([
    Buffer.from([0xff, 0xd8, 0xff]),
    Buffer.from('command not found'),
    Buffer.from([0xff, 0xd9]),
  ]),
  'a JPEG cut before its end marker': JPEG.subarray(0, JPEG.length - 20),
  'a JPEG without a frame header': Buffer.concat([JPEG.subarray(0, 20), Buffer.from([0xff, 0xda, 0, 2, 0xff, 0xd9])]),
  'a 4-byte JPEG': Buffer.from([0xff, 0xd8, 0xff, 0xd9]),
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

/** PNG's chunk checksum (CRC-32), so that padded images stay valid for any decoder. */
function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A complete PNG of exactly `size` bytes: the 2×2 image with a text chunk of padding before its end. */
export function pngOfSize(size: number): Buffer {
  const iend = PNG.subarray(PNG.length - 12);
  const padding = size - PNG.length - 12;
  if (padding < 0) throw new Error(`a PNG needs at least ${PNG.length + 12} bytes`);
  const typeAndData = Buffer.concat([Buffer.from('tEXt'), Buffer.from('Comment\0'), Buffer.alloc(padding - 8, 'x')]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(typeAndData.length - 4);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([PNG.subarray(0, PNG.length - 12), length, typeAndData, crc, iend]);
}

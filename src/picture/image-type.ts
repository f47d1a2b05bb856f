export type ImageType = 'image/jpeg' | 'image/png' | 'image/webp';

export const IMAGE_TYPES: readonly ImageType[] = ['image/jpeg', 'image/png', 'image/webp'];

/** The image type from the first bytes (the magic numbers), whatever a header or a file name says. */
export function detectImageType(bytes: Uint8Array): ImageType | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && PNG_SIGNATURE.every((b, i) => bytes[i] === b)) return 'image/png';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return 'image/webp';
  return undefined;
}

export interface ImageInfo {
  type: ImageType;
  width: number;
  height: number;
}

export type ImageCheck = { ok: true; image: ImageInfo } | { ok: false; problem: string };

/**
 * A JPEG, PNG or WebP image with a header that gives its dimensions and an end that shows it is
 * complete: magic bytes alone are not enough, since a truncated capture, a camera's error page that
 * happens to start with the magic or a half-written file would otherwise be served as a picture.
 * Only the container is checked (headers and end markers), not the compressed pixels.
 */
export function inspectImage(bytes: Uint8Array): ImageCheck {
  const type = detectImageType(bytes);
  if (!type) return { ok: false, problem: 'not a JPEG, PNG or WebP image' };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const found = type === 'image/jpeg' ? jpegSize(bytes, view) : type === 'image/png' ? pngSize(bytes, view) : webpSize(bytes, view);
  if (typeof found === 'string') return { ok: false, problem: found };
  return { ok: true, image: { type, ...found } };
}

type Size = { width: number; height: number } | string;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** The whole IEND chunk: zero length, the type, and its (constant) CRC. */
const PNG_IEND = [0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82];

function ascii(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length));
}

const sized = (width: number, height: number, what: string): Size =>
  width > 0 && height > 0 ? { width, height } : `${what} gives no dimensions`;

/** SOF0–SOF15 carry the dimensions; C4 (DHT), C8 (JPG) and CC (DAC) share the range but do not. */
const isFrameHeader = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

function jpegSize(bytes: Uint8Array, view: DataView): Size {
  const end = bytes.length;
  if (end < 4 || bytes[end - 2] !== 0xff || bytes[end - 1] !== 0xd9) return 'JPEG without its end marker (incomplete)';
  // Walk the segments before the scan: the frame header must come before the image data.
  let at = 2;
  while (at + 4 <= end) {
    if (bytes[at] !== 0xff) return 'JPEG with a malformed segment';
    const marker = bytes[at + 1];
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2; // segments without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) break;
    const length = view.getUint16(at + 2);
    if (length < 2 || at + 2 + length > end) return 'JPEG with a truncated segment';
    if (isFrameHeader(marker)) {
      if (length < 7) return 'JPEG with a truncated frame header';
      return sized(view.getUint16(at + 7), view.getUint16(at + 5), 'JPEG frame header');
    }
    at += 2 + length;
  }
  return 'JPEG without a frame header (SOF)';
}

function pngSize(bytes: Uint8Array, view: DataView): Size {
  const end = bytes.length;
  if (end < 8 + 25 + PNG_IEND.length) return 'PNG too short to hold its header and end';
  if (view.getUint32(8) !== 13 || ascii(bytes, 12, 4) !== 'IHDR') return 'PNG without an IHDR header';
  if (!PNG_IEND.every((b, i) => bytes[end - PNG_IEND.length + i] === b)) return 'PNG without its IEND chunk (incomplete)';
  return sized(view.getUint32(16), view.getUint32(20), 'PNG header');
}

/** Walks the RIFF chunks, which must fill the file exactly, and takes the size from VP8X, VP8 or VP8L. */
function webpSize(bytes: Uint8Array, view: DataView): Size {
  const end = bytes.length;
  if (view.getUint32(4, true) + 8 !== end) return 'WebP whose RIFF length does not match the file (incomplete)';
  let size: Size | undefined;
  let hasImage = false;
  let at = 12;
  while (at < end) {
    if (at + 8 > end) return 'WebP with a truncated chunk header';
    const fourcc = ascii(bytes, at, 4);
    const length = view.getUint32(at + 4, true);
    const data = at + 8;
    if (data + length > end) return `WebP with a truncated ${fourcc.trim()} chunk`;
    if (fourcc === 'VP8X' && at === 12) {
      if (length < 10) return 'WebP with a truncated VP8X header';
      size = sized(1 + (view.getUint32(data + 4, true) & 0xffffff), 1 + (view.getUint32(data + 6, true) >>> 8), 'WebP VP8X header');
    } else if (fourcc === 'VP8 ') {
      hasImage = true;
      if (length < 10 || bytes[data + 3] !== 0x9d || bytes[data + 4] !== 0x01 || bytes[data + 5] !== 0x2a)
        return 'WebP with a malformed VP8 frame';
      size ??= sized(view.getUint16(data + 6, true) & 0x3fff, view.getUint16(data + 8, true) & 0x3fff, 'WebP VP8 frame');
    } else if (fourcc === 'VP8L') {
      hasImage = true;
      if (length < 5 || bytes[data] !== 0x2f) return 'WebP with a malformed VP8L frame';
      const bits = view.getUint32(data + 1, true);
      size ??= sized((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1, 'WebP VP8L frame');
    } else if (fourcc === 'ANMF') {
      hasImage = true;
    }
    at = data + length + (length % 2); // chunks are padded to an even length
  }
  if (!hasImage || !size) return 'WebP without an image frame';
  return size;
}

import { sharedCapture } from '../picture/cache.js';
import { detectImageType } from '../picture/image-type.js';
import { CameraUnavailable, type Picture, pictureSource } from '../picture/sources.js';
import type { ServiceDeps } from './deps.js';
import { InvalidInput } from './errors.js';

/** A failed capture is answered from memory this long (at most PICTURE_CACHE_MS), then the camera is asked again. */
export const FAILURE_KEPT_MS = 1000;

export interface PictureSettings {
  /** PICTURE_SOURCE; unset: the last upload. */
  source: string | undefined;
  timeoutMs: number;
  cacheMs: number;
}

export function pictureService({ store, now }: ServiceDeps, settings: PictureSettings) {
  const uploaded = async (): Promise<Picture> => {
    const stored = await store.pictures.get();
    if (!stored) throw new CameraUnavailable('no picture uploaded yet');
    return { bytes: stored.bytes, type: stored.content_type as Picture['type'] };
  };
  const capture = sharedCapture(settings.source ? pictureSource(settings.source, settings.timeoutMs) : uploaded, {
    ttlMs: settings.cacheMs,
    failureTtlMs: FAILURE_KEPT_MS,
    now,
  });

  return {
    /** The current picture, shared by every caller for the cache lifetime; throws CameraUnavailable. */
    current: (): Promise<Picture> => capture.get(),

    /** Stores an uploaded image, its type taken from its bytes, and serves it from now on. */
    async upload(bytes: Buffer): Promise<void> {
      const type = detectImageType(bytes);
      if (!type) throw new InvalidInput({ loc: ['body'], msg: 'The body is not a JPEG, PNG or WebP image', type: 'image_type' });
      await store.pictures.put(bytes, type, now());
      capture.invalidate();
    },
  };
}

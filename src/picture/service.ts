import { sharedCapture } from './cache.js';
import type { PictureHealth } from './health.js';
import { detectImageType, inspectImage } from './image-type.js';
import { CameraUnavailable, type Picture, pictureSource } from './sources.js';
import type { ServiceDeps } from '../core/service-deps.js';
import { InvalidInput } from '../core/errors.js';

/** A failed capture is answered from memory this long (at most PICTURE_CACHE_MS), then the camera is asked again. */
export const FAILURE_KEPT_MS = 1000;

interface PictureSettings {
  /** PICTURE_SOURCE; unset: the last upload. */
  source: string | undefined;
  timeoutMs: number;
  cacheMs: number;
}

/**
 * The camera of PICTURE_SOURCE (or the last upload) behind one shared capture: GET /picture and
 * the timelapse frames take their pictures from it, so they share captures.
 */
export function pictureService({ store, now }: ServiceDeps, settings: PictureSettings) {
  const uploaded = async (): Promise<Picture> => {
    const stored = await store.pictures.get();
    if (!stored) throw new CameraUnavailable('no picture uploaded yet');
    return { bytes: stored.bytes, type: stored.content_type as Picture['type'] };
  };
  const source = settings.source ? pictureSource(settings.source, settings.timeoutMs) : undefined;
  const capture = sharedCapture(source ?? uploaded, { ttlMs: settings.cacheMs, failureTtlMs: FAILURE_KEPT_MS, now });

  return {
    /** The current picture, shared by every caller for the cache lifetime; throws CameraUnavailable. */
    current: (): Promise<Picture> => capture.get(),

    /** A camera to take pictures from: PICTURE_SOURCE, or a picture uploaded once. */
    hasCamera: async (): Promise<boolean> => source !== undefined || (await store.pictures.get()) !== undefined,

    /** The state of PICTURE_SOURCE by its captures; `none` without one (uploads are served). */
    health: (): PictureHealth => source?.state() ?? 'none',

    /**
     * Stores an uploaded image, its type taken from its bytes, and serves it from now on. Magic
     * bytes alone are not enough: a truncated or fake image is refused like a non-image.
     */
    async upload(bytes: Buffer): Promise<void> {
      if (!detectImageType(bytes))
        throw new InvalidInput({ loc: ['body'], msg: 'The body is not a JPEG, PNG or WebP image', type: 'image_type' });
      const check = inspectImage(bytes);
      if (!check.ok)
        throw new InvalidInput({ loc: ['body'], msg: `The body is not a complete image: ${check.problem}`, type: 'image_incomplete' });
      await store.pictures.put(bytes, check.image.type, now());
      capture.invalidate();
    },

    /** Stops the source's folder watch, if it has one. */
    close(): void {
      source?.close();
    },
  };
}

export type PictureService = ReturnType<typeof pictureService>;

import { Type } from '@sinclair/typebox';
import { HttpError, invalid } from '../http/errors.js';
import { sharedCapture } from '../picture/cache.js';
import { detectImageType, IMAGE_TYPES } from '../picture/image-type.js';
import { CameraUnavailable, MAX_PICTURE_BYTES, type Picture, pictureSource } from '../picture/sources.js';
import { errorResponses } from '../schemas/common.js';
import type { RouteGroup } from './deps.js';

const tags = ['Users, tokens and picture'];

const pictureRoutes: RouteGroup = async (app, { config, store, now }) => {
  const uploaded = async (): Promise<Picture> => {
    const stored = await store.pictures.get();
    if (!stored) throw new CameraUnavailable('no picture uploaded yet');
    return { bytes: stored.bytes, type: stored.content_type as Picture['type'] };
  };
  const capture = sharedCapture(
    config.pictureSource ? pictureSource(config.pictureSource, config.pictureTimeoutMs) : uploaded,
    config.pictureCacheMs,
  );

  for (const type of IMAGE_TYPES) {
    app.addContentTypeParser(type, { parseAs: 'buffer', bodyLimit: MAX_PICTURE_BYTES }, (_request, body, done) => done(null, body));
  }

  app.get('/picture', {
    config: { access: 'read' },
    schema: {
      tags,
      summary: 'Picture',
      operationId: 'picture',
      description:
        'The current camera image (JPEG, PNG or WebP, typed from its bytes) from PICTURE_SOURCE: a snapshot URL, a file or ' +
        'the newest image of a folder, a command (run by /bin/sh) printing the image, or else the last upload. Captures are ' +
        'shared for PICTURE_CACHE_MS and by concurrent requests; a failed capture is not kept. 503 when no image is available.',
      produces: [...IMAGE_TYPES],
      response: errorResponses(503),
    },
    handler: async (request, reply) => {
      try {
        const picture = await capture.get();
        return reply.type(picture.type).header('Cache-Control', 'no-store').send(picture.bytes);
      } catch (error) {
        if (!(error instanceof CameraUnavailable)) throw error;
        request.log.warn({ reason: error.message }, 'camera not available');
        return reply.code(503).send({ detail: 'Camera not available.' });
      }
    },
  });

  app.put('/picture', {
    config: { access: 'modify' },
    bodyLimit: MAX_PICTURE_BYTES,
    schema: {
      tags,
      summary: 'Upload Picture',
      operationId: 'uploadPicture',
      description:
        'Stores the raw image body (image/jpeg, image/png or image/webp, at most 10 MiB) as the picture served when ' +
        'PICTURE_SOURCE is unset; it survives restarts. The type is taken from the bytes: 422 when they are not such an ' +
        'image, 415 for another content type, 413 over the limit. With PICTURE_SOURCE set the upload is still stored but ' +
        'GET /picture serves the configured source.',
      response: { 204: Type.Null(), ...errorResponses(413, 415, 422) },
    },
    handler: async (request, reply) => {
      const mime = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
      if (!(IMAGE_TYPES as readonly string[]).includes(mime)) {
        throw new HttpError(415, `Unsupported content type: send image/jpeg, image/png or image/webp`);
      }
      const bytes = request.body as Buffer;
      const type = Buffer.isBuffer(bytes) ? detectImageType(bytes) : undefined;
      if (!type) throw invalid({ loc: ['body'], msg: 'The body is not a JPEG, PNG or WebP image', type: 'image_type' });
      await store.pictures.put(bytes, type, now());
      capture.invalidate();
      return reply.code(204).send(null);
    },
  });
};

export default pictureRoutes;

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { HttpError, invalid } from '../http/errors.js';
import { sharedCapture } from '../picture/cache.js';
import { reportPictureHealth } from '../picture/health.js';
import { detectImageType, IMAGE_TYPES, inspectImage } from '../picture/image-type.js';
import { CameraUnavailable, MAX_PICTURE_BYTES, MAX_REDIRECTS, type Picture, pictureSource } from '../picture/sources.js';
import { ErrorBody, ValidationErrorBody } from '../schemas/common.js';
import type { RouteDeps } from './deps.js';

const tags = ['Users, tokens and picture'];

/** A failed capture is answered from memory this long (at most PICTURE_CACHE_MS), then the camera is asked again. */
const FAILURE_KEPT_MS = 1000;

const json = (schema: object) => ({ 'application/json': { schema } });
const imageContent = (description: string) =>
  Object.fromEntries(IMAGE_TYPES.map((type) => [type, { schema: { type: 'string', format: 'binary', description } }]));

/**
 * The camera of PICTURE_SOURCE (or the last upload) behind one shared capture: GET /picture and the
 * timelapse frames take their pictures from it, so they share captures.
 */
export function pictureCamera({ config, store, now }: Pick<RouteDeps, 'config' | 'store' | 'now'>) {
  const uploaded = async (): Promise<Picture> => {
    const stored = await store.pictures.get();
    if (!stored) throw new CameraUnavailable('no picture uploaded yet');
    return { bytes: stored.bytes, type: stored.content_type as Picture['type'] };
  };
  const source = config.pictureSource ? pictureSource(config.pictureSource, config.pictureTimeoutMs) : undefined;
  reportPictureHealth(config, () => source?.state() ?? 'none');
  const capture = sharedCapture(source ?? uploaded, {
    ttlMs: config.pictureCacheMs,
    failureTtlMs: FAILURE_KEPT_MS,
    now,
  });
  // Stops the source's folder watch, if it has one.
  return Object.assign(capture, { close: () => source?.close() });
}

export type Camera = ReturnType<typeof pictureCamera>;

const pictureRoutes: FastifyPluginAsyncTypebox<RouteDeps & { camera: Camera }> = async (app, { store, now, camera: capture }) => {
  app.addHook('onClose', async () => capture.close());
  // Image bodies arrive as bytes; these parsers exist only inside this route group.
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
        'The current camera image, its Content-Type (image/jpeg, image/png or image/webp) taken from its bytes, sent ' +
        'with Cache-Control: no-store. PICTURE_SOURCE says where it comes from: a snapshot URL (http/https, fetched ' +
        `within PICTURE_TIMEOUT_MS, at most ${MAX_REDIRECTS} redirects followed and only to the same scheme), \`file:\` a ` +
        'regular file or the newest image file of a folder by modification time (other files, FIFOs, devices and ' +
        'symlinks that leave the folder skipped; the listing is kept between captures and only what changed is looked ' +
        'at again; file captures run one at a time, so a file on a hung mount holds one thread and later captures ' +
        'answer 503 at their limit), `exec:` a command run by /bin/sh whose standard output is the image (killed with ' +
        'everything it started when it runs over PICTURE_TIMEOUT_MS, a non-zero exit is a failure), or, unset, the ' +
        'last picture uploaded with PUT /picture. A picture must be complete, with a header giving its dimensions ' +
        '(JPEG SOF and EOI, PNG IHDR and IEND, WebP VP8/VP8L/VP8X within the announced RIFF length). A picture is ' +
        'shared by every request for PICTURE_CACHE_MS, and concurrent requests wait for one capture instead of ' +
        `starting their own. A failed capture is answered from memory for at most ${FAILURE_KEPT_MS} ms (never ` +
        'longer than PICTURE_CACHE_MS), then the camera is asked again. 503 when there is no picture: nothing ' +
        'uploaded, or a source that fails, times out, sends more than 10 MiB or something that is not a complete ' +
        'JPEG, PNG or WebP image. GET /healthz tells the state of the source.',
      response: {
        200: { description: 'The image bytes.', content: imageContent('The image bytes') },
        503: { description: 'Camera not available.', content: json(Type.Ref(ErrorBody)) },
      },
    },
    handler: async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      try {
        const picture = await capture.get();
        return reply.type(picture.type).send(picture.bytes);
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
    // The body schema only documents the bytes; the handler checks them (a Buffer is no JSON string).
    validatorCompiler: () => () => true,
    schema: {
      tags,
      summary: 'Upload Picture',
      operationId: 'uploadPicture',
      description:
        'Stores the raw request body (Content-Type image/jpeg, image/png or image/webp, at most 10 MiB) as the ' +
        'picture, replacing the previous one; it is kept in the store, so it survives restarts, and GET /picture ' +
        'serves it at once (other processes on the same store within PICTURE_CACHE_MS). The type is taken from the bytes: a body labelled with one accepted type that holds ' +
        'another accepted type is stored and served as what it is, while a body that is not a JPEG, PNG or WebP image ' +
        'is refused with 422 (type image_type) whatever the header says, and one that has an image\'s magic bytes but ' +
        'is not complete, or has no header giving its dimensions (JPEG SOF and EOI, PNG IHDR and IEND, WebP ' +
        'VP8/VP8L/VP8X within the announced RIFF length), with 422 (type image_incomplete). 415 for any other ' +
        'Content-Type, 413 over 10 MiB; a refused ' +
        'upload changes nothing. When PICTURE_SOURCE is set the upload is still stored (it is served once the source ' +
        'is unset) but GET /picture serves the configured source.',
      body: { content: imageContent('The image bytes') },
      response: {
        204: { description: 'Stored.', type: 'null' },
        413: { description: 'Body over 10 MiB.', content: json(Type.Ref(ErrorBody)) },
        415: { description: 'Not an image content type.', content: json(Type.Ref(ErrorBody)) },
        422: { description: 'The bytes are not a complete JPEG, PNG or WebP image.', content: json(Type.Ref(ValidationErrorBody)) },
      },
    },
    handler: async (request, reply) => {
      const mime = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
      if (!(IMAGE_TYPES as readonly string[]).includes(mime) || !Buffer.isBuffer(request.body)) {
        throw new HttpError(415, 'Unsupported content type: send the image as image/jpeg, image/png or image/webp');
      }
      const bytes = request.body;
      if (!detectImageType(bytes)) throw invalid({ loc: ['body'], msg: 'The body is not a JPEG, PNG or WebP image', type: 'image_type' });
      // Magic bytes alone are not enough: a truncated or fake image is refused like a non-image.
      const check = inspectImage(bytes);
      if (!check.ok) throw invalid({ loc: ['body'], msg: `The body is not a complete image: ${check.problem}`, type: 'image_incomplete' });
      await store.pictures.put(bytes, check.image.type, now());
      capture.invalidate();
      return reply.code(204).send();
    },
  });
};

export default pictureRoutes;

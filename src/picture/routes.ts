import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { HttpError } from '../http/errors.js';
import { IMAGE_TYPES } from './image-type.js';
import { CameraUnavailable, MAX_PICTURE_BYTES, MAX_REDIRECTS } from './sources.js';
import { ErrorBody, ValidationErrorBody } from '../domain/schema-common.js';
import { pictureDocs as docs } from './docs.js';
import { FAILURE_KEPT_MS } from './service.js';
import type { PictureService } from './service.js';

const json = (schema: object) => ({ 'application/json': { schema } });
const imageContent = (description: string) =>
  Object.fromEntries(IMAGE_TYPES.map((type) => [type, { schema: { type: 'string', format: 'binary', description } }]));

/** What the picture routes are given. */
export interface PictureRouteDeps {
  services: { pictures: PictureService };
}

const pictureRoutes: FastifyPluginAsyncTypebox<PictureRouteDeps> = async (app, { services: { pictures } }) => {
  // Image bodies arrive as bytes; these parsers exist only inside this route group.
  for (const type of IMAGE_TYPES) {
    app.addContentTypeParser(type, { parseAs: 'buffer', bodyLimit: MAX_PICTURE_BYTES }, (_request, body, done) => done(null, body));
  }

  app.get('/picture', {
    config: { access: 'read' },
    schema: {
      ...docs.get(FAILURE_KEPT_MS, MAX_REDIRECTS),
      response: {
        200: { description: 'The image bytes.', content: imageContent('The image bytes') },
        503: { description: 'Camera not available.', content: json(Type.Ref(ErrorBody)) },
      },
    },
    handler: async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      try {
        const picture = await pictures.current();
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
    // The body schema only documents the bytes; the service checks them (a Buffer is no JSON string).
    validatorCompiler: () => () => true,
    schema: {
      ...docs.upload,
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
      await pictures.upload(request.body);
      return reply.code(204).send();
    },
  });
};

export default pictureRoutes;

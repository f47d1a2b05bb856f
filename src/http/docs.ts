import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { ErrorBody, ValidationErrorBody } from '../schemas/common.js';

const TAGS = [
  { name: 'Measurements', description: 'Record, read, export and generate measurements.' },
  { name: 'Actuators', description: 'Pumps driven by a sensor, and the state their controllers poll.' },
  { name: 'Sensors', description: 'Sensors of a prototype and their thresholds.' },
  { name: 'Prototypes', description: 'Grow prototypes (a tank, a greenhouse).' },
  { name: 'Users, tokens and picture', description: 'OAuth2 password flow, user tokens, and the camera picture.' },
  { name: 'Timelapse', description: 'Frames from the camera on a schedule, assembled into an MP4 video by ffmpeg.' },
  { name: 'Operations', description: 'Health and documentation.' },
];

/** The OpenAPI document comes from the same schemas that validate the requests. */
export async function registerDocs(app: FastifyInstance): Promise<void> {
  app.addSchema(ErrorBody);
  app.addSchema(ValidationErrorBody);
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'sensorhub',
        version: '0.1.0',
        description:
          'HTTP service for sensor and actuator systems. Errors are `{"detail": …}`; validation errors ' +
          '(422) list every problem with its `loc`. Integer fields accept numeric strings. Paths work with ' +
          'and without a trailing slash.\n\n' +
          'Limits on every request (422 beyond them, and nothing is written): every number is finite (`1e400` ' +
          'overflows to infinity and is refused); a numeric string is at most 64 characters; no string holds ' +
          'the NUL character (`\\u0000`); every date-time, and both edges of a window, lie within the years 1 to ' +
          '9999 (UTC), and a duration is no longer than that span; `max_points` is at most 100,000; an id in ' +
          'the path is ASCII digits only (` 1`, `+1`, `1%0A` are refused). Errors raised before a route runs ' +
          'answer `{"detail": …}` too: 400 for a malformed URL or request, 414 for a path parameter over 200 ' +
          'characters, 431 for headers (the URL included) over the size limit.',
      },
      tags: TAGS,
      components: {
        securitySchemes: {
          OAuth2PasswordBearer: { type: 'oauth2', flows: { password: { tokenUrl: 'token', scopes: {} } } },
        },
      },
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true }, config: { access: 'public' } }, () => app.swagger());
}

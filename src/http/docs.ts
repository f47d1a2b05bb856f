import type { SwaggerOptions } from '@fastify/swagger';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { ErrorBody, RemovalRefusedBody, ValidationErrorBody } from '../domain/schema-common.js';
import { docsHeaders } from './security-headers.js';

const TAGS = [
  { name: 'Measurements', description: 'Record, read, export and generate measurements.' },
  { name: 'Actuators', description: 'Pumps driven by a sensor, and the state their controllers poll.' },
  { name: 'Sensors', description: 'Sensors of a prototype and their thresholds.' },
  { name: 'Prototypes', description: 'Grow prototypes (a tank, a greenhouse).' },
  { name: 'Users, tokens and picture', description: 'OAuth2 password flow, user tokens, and the camera picture.' },
  { name: 'Timelapse', description: 'Frames from the camera on a schedule, assembled into an MP4 video by ffmpeg.' },
  { name: 'Operations', description: 'Health and documentation.' },
];

/** How @fastify/swagger writes the document: its header, tags and security schemes. */
const SWAGGER_OPTIONS: SwaggerOptions = {
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
};

/**
 * The OpenAPI document comes from the same schemas that validate the requests. It is made on the
 * first request for it or for /docs, not at start: the routes are noted as they are registered,
 * and @fastify/swagger (with its YAML writer and reference resolver) loads only then, in an app of
 * its own that holds the same routes with the same schemas and the same shared schemas.
 */
export async function registerDocs(app: FastifyInstance): Promise<void> {
  app.addSchema(ErrorBody);
  app.addSchema(ValidationErrorBody);
  app.addSchema(RemovalRefusedBody);
  const routes: RouteOptions[] = [];
  // HEAD routes are Fastify's own copies of the GET ones: the document leaves them out.
  app.addHook('onRoute', (route) => {
    if (route.method !== 'HEAD') routes.push(route);
  });
  let document: Promise<Record<string, unknown>> | undefined;
  const openapi = () => (document ??= openapiDocument(app.getSchemas(), routes));
  app.get('/openapi.json', { schema: { hide: true }, config: { access: 'public' } }, () => openapi());
  registerSwaggerUi(app, openapi);
}

/** The document of `routes`, made by @fastify/swagger in a Fastify app that only describes them. */
async function openapiDocument(schemas: Record<string, unknown>, routes: RouteOptions[]): Promise<Record<string, unknown>> {
  const [{ default: Fastify }, { default: swagger }] = await Promise.all([import('fastify'), import('@fastify/swagger')]);
  const describer = Fastify();
  // Nothing is ever validated or answered here: no compiled checks or serializers.
  describer.setValidatorCompiler(() => () => true);
  describer.setSerializerCompiler(() => (data) => JSON.stringify(data));
  for (const schema of Object.values(schemas)) describer.addSchema(schema);
  await describer.register(swagger, SWAGGER_OPTIONS);
  for (const { method, url, schema, config } of routes) {
    describer.route({ method, url, schema, config, exposeHeadRoute: false, handler: () => undefined });
  }
  await describer.ready();
  const made = describer.swagger() as Record<string, unknown>;
  await describer.close();
  return made;
}

/** Hop-by-hop and framing headers the answer of the outer server sets for itself. */
const OWN_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'date']);

/**
 * Swagger UI at /docs, loaded on the first request there rather than at start (its plugin, its
 * YAML writer and its file server are memory a small board keeps for nothing while nobody reads
 * the docs). Its routes live in an app of their own, built once, serving the document the service
 * had when it was first asked; the request goes through it in memory. A page policy on every
 * answer (its page loads every script from a file); nosniff comes from the service like every answer.
 */
function registerSwaggerUi(app: FastifyInstance, openapi: () => Promise<Record<string, unknown>>): void {
  let ui: Promise<FastifyInstance> | undefined;
  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    ui ??= openapi().then(swaggerUiApp);
    // Asked as a GET: for a HEAD, this server drops the body and keeps its length.
    const answer = await (await ui).inject({ method: 'GET', url: request.url, headers: request.headers });
    if (answer.statusCode === 404) return reply.callNotFound();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (!OWN_HEADERS.has(name) && value !== undefined) reply.header(name, value);
    }
    return reply.code(answer.statusCode).send(answer.rawPayload);
  };
  const options = { schema: { hide: true }, config: { access: 'public' as const }, onRequest: docsHeaders };
  app.get('/docs', options, forward);
  app.get('/docs/*', options, forward);
}

async function swaggerUiApp(document: Record<string, unknown>): Promise<FastifyInstance> {
  const [{ default: Fastify }, { default: swagger }, { default: swaggerUi }] = await Promise.all([
    import('fastify'),
    import('@fastify/swagger'),
    import('@fastify/swagger-ui'),
  ]);
  const ui = Fastify({ routerOptions: { ignoreTrailingSlash: true } });
  await ui.register(swagger, { mode: 'static', specification: { document: document as never } });
  await ui.register(swaggerUi, { routePrefix: '/docs' });
  await ui.ready();
  return ui;
}

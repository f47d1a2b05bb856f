import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import cors from '@fastify/cors';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import { registerGuard } from './auth/guard.js';
import { createAuth } from './auth/index.js';
import type { ThrottleLimits } from './auth/login-throttle.js';
import type { Config } from './config.js';
import { registerDocs } from './http/docs.js';
import { registerErrorHandling } from './http/errors.js';
import { type Handler, hotReads } from './http/hot-reads.js';
import { validatorCompiler } from './http/validation.js';
import { type ChangeBus, changeBus } from './events/bus.js';
import type { RouteDeps } from './routes/deps.js';
import actuatorRoutes from './routes/actuators.js';
import measurementRoutes from './routes/measurements.js';
import opsRoutes from './routes/ops.js';
import pictureRoutes from './routes/picture.js';
import prototypeRoutes from './routes/prototypes.js';
import sensorRoutes from './routes/sensors.js';
import userRoutes from './routes/users.js';
import { createServices } from './services/index.js';
import { retentionJob } from './services/retention.js';
import type { Store } from './store/index.js';
import { isStoreUnavailable } from './store/errors.js';

export interface AppOptions {
  /** The clock, injectable so tests need no sleeps. */
  now?: () => number;
  logger?: FastifyServerOptions['logger'];
  /** Failed-login limits (tests shorten them). */
  loginLimits?: ThrottleLimits;
  /** Answer the polled reads in front of the request pipeline where it adds nothing (default true). */
  hotReads?: boolean;
  /** Where committed changes are published (tests pass one to listen); by default a bus of the app's own. */
  bus?: ChangeBus;
}

/**
 * On close, requests already being handled finish; their connections are then closed instead of
 * kept alive (a keep-alive connection left idle would hold the close open), and idle ones are
 * swept until the server has stopped.
 */
function registerDraining(app: FastifyInstance): () => boolean {
  let draining = false;
  let sweeper: NodeJS.Timeout | undefined;
  // Callback hooks rather than async ones: they run on every request, and a promise each is dearer.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining) reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('preClose', async () => {
    draining = true;
    sweeper = setInterval(() => app.server.closeIdleConnections(), 50);
    sweeper.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(sweeper);
  });
  return () => draining;
}

/** Response headers a dashboard on another origin may read (the export's file name). */
const EXPOSED_HEADERS = ['Content-Disposition'];

/** Fastify's request ids (`req-1`, `req-2`…), shared with the requests answered in front of it. */
function requestIds(): () => string {
  let next = 0;
  return () => {
    next = (next + 1) & 0x7fffffff;
    return `req-${next.toString(36)}`;
  };
}

export async function buildApp(config: Config, store: Store, options: AppOptions = {}): Promise<FastifyInstance> {
  // The HTTP server is made here rather than by Fastify, so that the polled reads can be answered
  // in front of it (see http/hot-reads.ts); it gets the settings Fastify gives its own.
  let front: ((req: IncomingMessage, res: ServerResponse, next: Handler) => void) | undefined;
  const nextRequestId = requestIds();
  const app = Fastify({
    serverFactory: (handler, settings) => {
      const server = createServer((req, res) => (front ? front(req, res, handler) : handler(req, res)));
      const given = settings as { keepAliveTimeout?: number; requestTimeout?: number; connectionTimeout?: number };
      server.keepAliveTimeout = given.keepAliveTimeout ?? 72_000;
      server.requestTimeout = given.requestTimeout ?? 0;
      server.setTimeout(given.connectionTimeout ?? 0);
      return server;
    },
    genReqId: nextRequestId,
    logger: options.logger ?? { level: config.logLevel },
    // Fastify's two lines per request are replaced by the one `request` line below.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.bodyLimitBytes,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler());
  // JSON only (and the form bodies the routes that take them declare): a text/plain body is a 415.
  app.removeContentTypeParser('text/plain');
  registerErrorHandling(app, isStoreUnavailable);

  // One structured line per request; no hook at all when the level leaves that line out.
  const logsRequests = ['info', 'debug', 'trace'].includes(app.log.level);
  if (logsRequests) {
    app.addHook('onResponse', (request, reply, done) => {
      request.log.info(
        { method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime * 100) / 100 },
        'request',
      );
      done();
    });
  }

  const draining = registerDraining(app);

  await app.register(cors, {
    origin: config.corsOrigins === '*' ? '*' : config.corsOrigins,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Content-Type', 'Authorization'],
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
  });
  await registerDocs(app);

  const now = options.now ?? Date.now;
  const auth = await createAuth(config, store, now, options.loginLimits);
  if (config.authMode === 'enforced') registerGuard(app, auth.authenticate, store);
  const bus = options.bus ?? changeBus({ onListenerError: (error, topic) => app.log.error({ err: error, topic }, 'change listener failed') });
  const services = createServices({ store, bus, now, log: app.log }, config, auth);
  const deps: RouteDeps = { config, services, auth, store };
  await app.register(opsRoutes, deps);
  await app.register(prototypeRoutes, deps);
  await app.register(sensorRoutes, deps);
  await app.register(measurementRoutes, deps);
  await app.register(actuatorRoutes, deps);
  await app.register(userRoutes, deps);
  await app.register(pictureRoutes, deps);

  // Where tokens are checked or origins told apart, every request takes the full pipeline.
  if ((options.hotReads ?? true) && config.authMode === 'open' && config.corsOrigins === '*') {
    front = hotReads({
      polled: store.polled,
      now,
      staleAfterMs: config.staleAfterMs,
      exposedHeaders: EXPOSED_HEADERS,
      active: () => !draining(),
      log: logsRequests ? { logger: app.log, nextRequestId } : undefined,
    });
  }

  if (config.retentionRawMs !== undefined) {
    const retention = retentionJob(store, { rawMs: config.retentionRawMs, fiveMinuteMs: config.retentionFiveMinuteMs }, now, app.log);
    app.addHook('onReady', async () => retention.start());
    app.addHook('preClose', async () => retention.stop());
  }

  return app;
}

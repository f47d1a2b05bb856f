import type { IncomingMessage, ServerResponse } from 'node:http';
import cors from '@fastify/cors';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import { type AlertsOptions, registerAlerts } from './alerts/index.js';
import { registerGuard } from './auth/guard.js';
import { createAuth } from './auth/index.js';
import { dashboardRoutes } from './dashboard/index.js';
import type { ThrottleLimits } from './auth/login-throttle.js';
import type { Config } from './config.js';
import { registerDocs } from './http/docs.js';
import { clientErrorHandler, frameworkErrors, registerErrorHandling } from './http/errors.js';
import { type Handler, hotReads } from './http/hot-reads.js';
import { createMetrics } from './http/metrics.js';
import { drainer, type Drainer } from './drain.js';
import { httpServer } from './http-server.js';
import { validatorCompiler } from './http/validation.js';
import { type ChangeBus, changeBus } from './events/bus.js';
import { type LiveEventsOptions, registerLiveEvents } from './events/index.js';
import { withoutToken } from './http/redact.js';
import type { RouteDeps } from './routes/deps.js';
import actuatorRoutes from './routes/actuators.js';
import measurementRoutes from './routes/measurements.js';
import metricsRoutes from './routes/metrics.js';
import opsRoutes from './routes/ops.js';
import pictureRoutes from './routes/picture.js';
import prototypeRoutes from './routes/prototypes.js';
import sensorRoutes from './routes/sensors.js';
import timelapseRoutes from './routes/timelapse.js';
import userRoutes from './routes/users.js';
import { createServices } from './services/index.js';
import { retentionJob } from './services/retention.js';
import type { Store } from './store/index.js';
import { isMissingReference, isStoreUnavailable } from './store/errors.js';
import { realTimers } from './timelapse/scheduler.js';
import { timelapseService } from './timelapse/service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Begins a graceful stop: new requests get 503 while those in flight finish; resolves when
     * they have. `close()` then stops the server.
     */
    drain(): Promise<void>;
  }
}

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
  /** Timers and limits of the live events (tests shorten them). */
  liveEvents?: LiveEventsOptions;
  /** Timers and webhook timing of the alerts (tests move time themselves). */
  alerts?: AlertsOptions;
}

/**
 * `drain()` first: new requests get 503 (see drain.ts) while those in flight finish. On close and
 * during the drain, the connections of finishing requests are closed instead of kept alive (a
 * keep-alive connection left idle would hold the close open), and idle ones are swept until the
 * server has stopped.
 */
function registerDraining(app: FastifyInstance, drain: Drainer): () => boolean {
  let draining = false;
  app.decorate('drain', () => drain.start());
  let sweeper: NodeJS.Timeout | undefined;
  // Callback hooks rather than async ones: they run on every request, and a promise each is dearer.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining || drain.draining) reply.header('connection', 'close');
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
  return () => draining || drain.draining;
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
  // in front of it (see http/hot-reads.ts).
  let front: ((req: IncomingMessage, res: ServerResponse, next: Handler) => void) | undefined;
  const nextRequestId = requestIds();
  const drain = drainer();
  const app = Fastify({
    serverFactory: (handler) =>
      httpServer(
        config,
        drain.wrap((req, res) => (front ? front(req, res, handler) : handler(req, res))),
      ),
    genReqId: nextRequestId,
    logger: options.logger ?? { level: config.logLevel },
    // Fastify's two lines per request are replaced by the one `request` line below.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.bodyLimitBytes,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // Errors raised before any route runs answer `{"detail": …}` too.
    frameworkErrors,
    clientErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler());
  // JSON only (and the form bodies the routes that take them declare): a text/plain body is a 415.
  app.removeContentTypeParser('text/plain');
  registerErrorHandling(app, isStoreUnavailable, isMissingReference);

  // One structured line per request; no hook at all when the level leaves that line out.
  const logsRequests = ['info', 'debug', 'trace'].includes(app.log.level);
  if (logsRequests) {
    app.addHook('onResponse', (request, reply, done) => {
      request.log.info(
        { method: request.method, url: withoutToken(request.url), status: reply.statusCode, ms: Math.round(reply.elapsedTime * 100) / 100 },
        'request',
      );
      done();
    });
  }

  const draining = registerDraining(app, drain);

  // Every answer is counted by route pattern and status (unknown paths share one label).
  // The live events are registered further down; the gauge reads their streams when scraped.
  let openStreams = () => 0;
  const metrics = createMetrics({ poolUse: store.poolUse, openStreams: () => openStreams() });
  store.instruments.ingested = metrics.ingested;
  store.instruments.groupCommitted = metrics.groupCommit;
  app.addHook('onResponse', (request, reply, done) => {
    metrics.request(request.method, request.is404 ? undefined : request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

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
  const bus =
    options.bus ?? changeBus({ onListenerError: (error, topic) => app.log.error({ err: error, topic }, 'change listener failed') });
  const services = createServices({ store, bus, now, log: app.log }, config, auth);
  const deps: RouteDeps = { config, services, auth, store };
  await app.register(opsRoutes, deps);
  await app.register(prototypeRoutes, deps);
  await app.register(sensorRoutes, deps);
  await app.register(measurementRoutes, deps);
  await app.register(actuatorRoutes, deps);
  await app.register(userRoutes, deps);
  await app.register(pictureRoutes, deps);
  app.addHook('onClose', async () => services.pictures.close());
  const timelapses = timelapseService({
    dir: config.timelapseDir,
    ffmpegPath: config.ffmpegPath,
    capture: () => services.pictures.current(),
    timers: realTimers(now),
    log: app.log,
  });
  // A timelapse that was running resumes once the app is ready; on close (SIGTERM) its timer stops.
  app.addHook('onReady', () => timelapses.resume());
  app.addHook('onClose', () => timelapses.close());
  await app.register(timelapseRoutes, { ...deps, timelapses });
  const { streams } = await registerLiveEvents(app, { store, bus, now, config }, options.liveEvents);
  // A drain waits for the requests in flight: open streams end first (their clients reconnect elsewhere).
  drain.onStart(() => streams.closeAll());
  openStreams = () => streams.count;
  await registerAlerts(app, { store, bus, now, config }, options.alerts);
  await app.register(metricsRoutes, { metrics });
  await app.register(dashboardRoutes, { config });

  // Where tokens are checked or origins told apart, every request takes the full pipeline.
  if ((options.hotReads ?? true) && config.authMode === 'open' && config.corsOrigins === '*') {
    front = hotReads({
      polled: store.polled,
      now,
      staleAfterMs: config.staleAfterMs,
      exposedHeaders: EXPOSED_HEADERS,
      active: () => !draining(),
      // The same series the routes feed, bound once: these reads are counted without a lookup.
      observe: {
        last: metrics.observer('GET', '/measurements/:sensor_id/last', 200),
        state: metrics.observer('GET', '/actuators/:actuator_id/state', 200),
      },
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

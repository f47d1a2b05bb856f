import type { IncomingMessage, ServerResponse } from 'node:http';
import cors from '@fastify/cors';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import { register as registerActuators } from './actuators/index.js';
import { type AlertsOptions, register as registerAlerts } from './alerts/index.js';
import { createAuth, register as registerAuth } from './auth/index.js';
import type { ThrottleLimits } from './auth/login-throttle.js';
import type { Config } from './config/index.js';
import { type ChangeBus, changeBus } from './core/bus.js';
import { systemTimers } from './core/timers.js';
import { register as registerDashboard } from './dashboard/index.js';
import { register as registerDecisions } from './decisions/index.js';
import { register as registerDoses } from './doses/index.js';
import { register as registerClaims } from './claims/index.js';
import { drainer, type Drainer } from './drain.js';
import { type LiveEventsOptions, register as registerLiveEvents } from './events/index.js';
import { register as registerHistory } from './history/index.js';
import { registerDocs } from './http/docs.js';
import { clientErrorHandler, frameworkErrors, registerErrorHandling } from './http/errors.js';
import { type Handler, hotReads } from './http/hot-reads.js';
import { lazySerializers } from './http/lazy-serializers.js';
import { createMetrics } from './http/metrics.js';
import { withoutToken } from './http/redact.js';
import { NOSNIFF, registerNosniff } from './http/security-headers.js';
import { validatorCompiler } from './http/validation.js';
import { httpServer } from './http-server.js';
import { register as registerMeasurements } from './measurements/index.js';
import { register as registerMqtt } from './mqtt/index.js';
import { register as registerNotifications } from './notifications/index.js';
import { register as registerOps } from './ops/index.js';
import { type BackupOptions, register as registerBackup } from './backup/index.js';
import { register as registerPicture } from './picture/index.js';
import { register as registerPrototypes } from './prototypes/index.js';
import { register as registerRecords } from './records/index.js';
import { register as registerSensors } from './sensors/index.js';
import { createServices } from './services.js';
import { isDiskFull, isMissingReference, isStoreUnavailable, type Store, storeDiskOf } from './store/index.js';
import { register as registerTimelapses } from './timelapse/index.js';
import { register as registerUsers } from './users/index.js';

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
  /** The backups' timers (tests move time themselves). */
  backup?: BackupOptions;
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
    schemaController: { compilersFactory: { buildSerializer: lazySerializers() } },
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
  registerErrorHandling(app, isStoreUnavailable, isMissingReference, { is: isDiskFull, storeDisk: storeDiskOf(config.databaseUrl) });
  registerNosniff(app);

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
  const metrics = createMetrics({ poolUse: store.poolUse });
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

  // One object for every capability; each takes the part its own deps type names.
  const now = options.now ?? Date.now;
  const log = app.log;
  const auth = await createAuth(config, store, now, options.loginLimits);
  const bus =
    options.bus ?? changeBus({ onListenerError: (error, topic) => app.log.error({ err: error, topic }, 'change listener failed') });
  const services = createServices({ store, bus, now, log }, config, auth, options.liveEvents?.timers ?? systemTimers);
  const deps = {
    config,
    store,
    bus,
    now,
    log,
    services,
    auth,
    metrics,
    drain,
    liveEventsOptions: options.liveEvents,
    alertsOptions: options.alerts,
    backupOptions: options.backup,
  };

  // In this order: the guard sees every route; hooks run in the order they are added.
  await registerAuth(app, deps);
  const mqtt = await registerMqtt(app, deps);
  const backup = await registerBackup(app, deps);
  await registerOps(app, { ...deps, mqttState: mqtt?.state, backupStatus: backup?.status });
  await registerPrototypes(app, deps);
  await registerSensors(app, deps);
  await registerMeasurements(app, deps);
  await registerHistory(app, deps);
  await registerActuators(app, deps);
  await registerDoses(app, deps);
  await registerDecisions(app, deps);
  await registerClaims(app, deps);
  await registerUsers(app, deps);
  await registerPicture(app, deps);
  await registerTimelapses(app, deps);
  await registerLiveEvents(app, deps);
  const alerts = await registerAlerts(app, deps);
  await registerNotifications(app, {
    ...deps,
    alerts: alerts.alerts,
    timers: options.alerts?.timers,
    webhookTiming: options.alerts?.webhooks,
  });
  await registerRecords(app, deps);
  await registerDashboard(app, deps);

  // Where tokens are checked or origins told apart, every request takes the full pipeline.
  if ((options.hotReads ?? true) && config.authMode === 'open' && config.corsOrigins === '*') {
    front = hotReads({
      polled: store.polled,
      actuatorState: services.claims.read,
      exposedHeaders: EXPOSED_HEADERS,
      headers: NOSNIFF,
      active: () => !draining(),
      // The same series the routes feed, bound once: these reads are counted without a lookup.
      observe: {
        last: metrics.observer('GET', '/measurements/:sensor_id/last', 200),
        state: metrics.observer('GET', '/actuators/:actuator_id/state', 200),
      },
      log: logsRequests ? { logger: app.log, nextRequestId } : undefined,
    });
  }

  return app;
}

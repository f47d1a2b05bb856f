import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { Store } from '../store/index.js';
import type { ChangeBus } from './bus.js';
import { decisionWatcher } from './decision-watcher.js';
import { eventFeed } from './feed.js';
import { postgresRelay } from './postgres-relay.js';
import type { RecentEventsLimits } from './recent-events.js';
import eventRoutes from './route.js';
import { type StreamLimits, type StreamRegistry, streamRegistry } from './streams.js';
import { systemTimers, type Timers } from './timers.js';
import { streamTokenCheck } from './token-check.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The open event streams (for the metrics gauge, and for tests). */
    liveEvents: { streams: StreamRegistry };
  }
}

/** Settings of the live events; tests shorten them. */
export interface LiveEventsOptions {
  /** The alarms of the actuator decisions and of the streams' token expiries (tests move time themselves). */
  timers?: Timers;
  streams?: Partial<StreamLimits>;
  recent?: Partial<RecentEventsLimits>;
}

/** How soon a token revoked outside the service (the users command line) ends the streams it opened. */
export const TOKEN_CHECK_MS = 60_000;

export const DEFAULT_STREAM_LIMITS: StreamLimits = { maxBacklogBytes: 1024 * 1024, heartbeatMs: 15_000, coalesceMs: 15 };
/** About a minute of heavy traffic; enough for a client to reconnect after a network blip. */
export const DEFAULT_RECENT_LIMITS: RecentEventsLimits = { maxEvents: 10_000, maxBytes: 16 * 1024 * 1024 };

export interface LiveEventsDeps {
  store: Store;
  bus: ChangeBus;
  now: () => number;
  config: Pick<Config, 'staleAfterMs' | 'databaseUrl' | 'httpIdleTimeoutMs'>;
}

/**
 * Live events (§9): the actuator decision watcher, the feed of events with its resume buffer,
 * the open streams, `GET /events`, and on PostgreSQL the relay between instances. Streams are
 * ended when the app closes, so a shutdown never waits on them.
 */
export async function registerLiveEvents(app: FastifyInstance, deps: LiveEventsDeps, options: LiveEventsOptions = {}) {
  const { store, bus, now, config } = deps;
  const { staleAfterMs } = config;
  const instance = randomBytes(4).toString('hex');
  // The comments must come well within the connection idle limit, or it would close quiet streams.
  const heartbeatMs = Math.min(DEFAULT_STREAM_LIMITS.heartbeatMs, Math.floor(config.httpIdleTimeoutMs / 2));
  const timers = options.timers ?? systemTimers;
  const streams = streamRegistry({ ...DEFAULT_STREAM_LIMITS, heartbeatMs, ...options.streams }, { timers, now });
  // A logout here or, relayed, on another instance ends the streams its tokens opened.
  const stopRevoking = bus.subscribe('tokensRevoked', ({ userId, generation }) => streams.revoke(userId, generation));
  const tokenCheck = streamTokenCheck({ streams, users: store.users, timers, everyMs: TOKEN_CHECK_MS, log: app.log });
  tokenCheck.start();
  const watcher = decisionWatcher({ store, bus, now, timers, staleAfterMs, log: app.log });
  const [sensors, actuators] = await Promise.all([store.sensors.list(), store.actuators.all()]);
  const feed = eventFeed({
    bus,
    sensors,
    actuators,
    instance,
    recent: { ...DEFAULT_RECENT_LIMITS, ...options.recent },
    deliver: streams.deliver,
    wanted: () => streams.opened > 0,
  });
  await watcher.start();
  const relay =
    store.dialect.kind === 'postgres'
      ? postgresRelay({
          databaseUrl: config.databaseUrl,
          store,
          bus,
          instance,
          log: app.log,
          onGap: () => streams.broadcast(feed.resetText()),
        })
      : undefined;
  await relay?.start();

  app.decorate('liveEvents', { streams });
  await app.register(eventRoutes, { store, feed, streams });
  app.addHook('preClose', async () => streams.closeAll());
  app.addHook('onClose', async () => {
    stopRevoking();
    tokenCheck.stop();
    watcher.stop();
    feed.stop();
    await relay?.stop();
  });
  return { streams, watcher };
}

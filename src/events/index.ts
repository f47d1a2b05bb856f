import { randomBytes } from 'node:crypto';
import type { Registry } from 'prom-client';
import { type Config, DEFAULT_EVENTS_MAX_STREAMS, DEFAULT_EVENTS_MAX_STREAMS_PER_CLIENT } from '../config/index.js';
import type { Store } from '../store/index.js';
import type { ChangeBus } from '../core/bus.js';
import type { Logger } from '../core/logger.js';
import type { App } from '../http/app-type.js';
import { decisionWatcher } from '../actuators/decision-watcher.js';
import type { DecisionInputs } from '../actuators/decision-inputs.js';
import type { ControllerContact } from '../actuators/controller-contact.js';
import { eventFeed } from './feed.js';
import { eventStreamMetrics } from './metrics.js';
import { postgresRelay } from './postgres-relay.js';
import type { RelayLink } from '../claims/index.js';
import type { RecentEventsLimits } from './recent-events.js';
import eventRoutes from './route.js';
import { type StreamLimits, type StreamRegistry, streamRegistry } from './streams.js';
import { systemTimers, type Timers } from '../core/timers.js';
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

export const DEFAULT_STREAM_LIMITS: StreamLimits = {
  maxBacklogBytes: 1024 * 1024,
  heartbeatMs: 15_000,
  coalesceMs: 15,
  maxStreams: DEFAULT_EVENTS_MAX_STREAMS,
  maxPerClient: DEFAULT_EVENTS_MAX_STREAMS_PER_CLIENT,
};
/** About a minute of heavy traffic; enough for a client to reconnect after a network blip. */
export const DEFAULT_RECENT_LIMITS: RecentEventsLimits = { maxEvents: 10_000, maxBytes: 16 * 1024 * 1024 };

export interface LiveEventsDeps {
  store: Store;
  bus: ChangeBus;
  now: () => number;
  log: Logger;
  config: Pick<Config, 'staleAfterMs' | 'httpIdleTimeoutMs' | 'eventsMaxStreams' | 'eventsMaxStreamsPerClient'>;
  /** The graceful stop: open streams end as soon as it starts (their clients reconnect elsewhere). */
  drain: { onStart(first: () => void): void };
  metrics: { registry: Registry };
  liveEventsOptions?: LiveEventsOptions;
  /** What the dosing decision reads, and the controllers' last contact (for the actuator as announced). */
  services: { safety: { inputs: DecisionInputs; contact: Pick<ControllerContact, 'withLastPolled'>; relay: RelayLink } };
}

/**
 * Live events (§9): the actuator decision watcher, the feed of events with its resume buffer,
 * the open streams and their gauges, `GET /events`, and on PostgreSQL the relay between instances.
 * Streams are ended when a drain starts and when the app closes, so a shutdown never waits on them.
 */
export async function register(app: App, deps: LiveEventsDeps) {
  const { store, bus, now, config, log } = deps;
  const options = deps.liveEventsOptions ?? {};
  const instance = randomBytes(4).toString('hex');
  // The comments must come well within the connection idle limit, or it would close quiet streams.
  const heartbeatMs = Math.min(DEFAULT_STREAM_LIMITS.heartbeatMs, Math.floor(config.httpIdleTimeoutMs / 2));
  const timers = options.timers ?? systemTimers;
  const bounds = { maxStreams: config.eventsMaxStreams, maxPerClient: config.eventsMaxStreamsPerClient };
  const streams = streamRegistry({ ...DEFAULT_STREAM_LIMITS, heartbeatMs, ...bounds, ...options.streams }, { timers, now });
  // A logout or revocation here or, relayed, on another instance ends the streams its tokens opened.
  const stopRevoking = bus.subscribe('tokensRevoked', (revoked) => streams.revoke(revoked));
  const tokenCheck = streamTokenCheck({
    streams,
    users: store.users,
    deviceTokens: store.deviceTokens,
    timers,
    everyMs: TOKEN_CHECK_MS,
    log,
  });
  tokenCheck.start();
  const { inputs, contact, relay: relayLink } = deps.services.safety;
  const watcher = decisionWatcher({ store, inputs, withLastPolled: contact.withLastPolled, bus, timers, log });
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
  // Only a store that several processes can share has a relay (PostgreSQL).
  const relay = store.relay
    ? postgresRelay({
        channel: store.relay,
        store,
        bus,
        instance,
        log,
        onLost: relayLink.lost,
        onGap: () => {
          streams.broadcast(feed.resetText());
          // Changes were missed: what the decisions read is read again.
          inputs.forgetAll();
          relayLink.restored();
        },
      })
    : undefined;
  await relay?.start();

  app.decorate('liveEvents', { streams });
  eventStreamMetrics(deps.metrics.registry, streams);
  // A drain waits for the requests in flight: open streams end first.
  deps.drain.onStart(() => streams.closeAll());
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

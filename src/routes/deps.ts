import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Auth } from '../auth/index.js';
import type { Config } from '../config.js';
import type { LinkState } from '../mqtt/link.js';
import type { Services } from '../services/index.js';
import type { Store } from '../store/index.js';

/** What every route group is given: the configuration, the services, and the store for health checks. */
export interface RouteDeps {
  config: Config;
  services: Services;
  auth: Auth;
  store: Pick<Store, 'ping'>;
  /** The state of the link to the MQTT broker, when MQTT is on (for `/healthz`). */
  mqttState?: () => LinkState;
}

export type RouteGroup = FastifyPluginAsyncTypebox<RouteDeps>;

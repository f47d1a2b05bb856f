import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Auth } from '../auth/index.js';
import type { Config } from '../config.js';
import type { Store } from '../store/index.js';

/** What every route group is given: the configuration, the store and the clock (injectable for tests). */
export interface RouteDeps {
  config: Config;
  store: Store;
  now: () => number;
  auth: Auth;
}

export type RouteGroup = FastifyPluginAsyncTypebox<RouteDeps>;

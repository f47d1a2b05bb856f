import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, RouteShorthandOptions } from 'fastify';
import type { App } from '../http/app-type.js';
import type { Store } from '../store/index.js';
import { dashboardHeaders } from '../http/security-headers.js';
import { sendFileFrom } from './files.js';
import { publicSettings, type PublicSettingsConfig } from './public-settings.js';

export interface DashboardOptions {
  config: PublicSettingsConfig;
  /** Whether any user exists yet (the login page offers to create the first administrator while none does). */
  store?: Pick<Store, 'users'>;
  /** The Vite build of web/ (default: dist/web beside the compiled service). */
  root?: string;
}

/** The same from src/dashboard (tsx) and dist/dashboard (compiled): two levels below the project. */
const DEFAULT_ROOT = fileURLToPath(new URL('../../dist/web', import.meta.url));

/** Hashed asset names change with their content, so a browser may keep them for a year. */
const ASSET_CACHE = { maxAge: '365d', immutable: true } as const;

/**
 * The built-in dashboard (docs/api.md §13): `GET /` leads to `/ui/`, where the single page and its
 * assets are served; no API route lives under `/ui/`. Every answer carries the security headers of
 * http/security-headers.ts (a policy that allows no inline script and no other origin). The files are public in every mode: the
 * page itself asks for a login when the service enforces one. Hidden from the OpenAPI document,
 * which describes the API only.
 */
export async function dashboardRoutes(app: FastifyInstance, { config, store, root = DEFAULT_ROOT }: DashboardOptions): Promise<void> {
  const route: RouteShorthandOptions = { config: { access: 'public' }, schema: { hide: true } };
  // On every route of this plugin only (the API's answers are not pages): set first, so that an
  // error or a missing file carries them too.
  app.addHook('onRequest', dashboardHeaders);

  const notBuilt = (reply: FastifyReply) => reply.code(503).send({ detail: 'The dashboard is not built: run `npm run build`.' });

  // A redirect rather than the page itself: one address for the page, so relative links and
  // bookmarks behave the same whichever way it was reached.
  app.get('/', route, (_request, reply) => reply.redirect('/ui/', 302));

  app.get('/ui/', route, (request, reply) => {
    if (!existsSync(`${root}/index.html`)) return notBuilt(reply);
    // The page names the current asset hashes: it must be revalidated on every load.
    return sendFileFrom(root, request, reply.header('cache-control', 'no-cache'), 'index.html', { cacheControl: false });
  });

  // Which optional parts the service has, read from its routes at request time (every route is
  // registered by then): the page then never asks for one that is not there, and no 404 shows as
  // an error in the browser's console.
  const has = (url: string) => app.findRoute({ method: 'GET', url }) !== null;
  app.get('/ui/settings.json', route, async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    // In enforced mode with no user yet, POST /users/new/ makes the first administrator without a
    // token: the login page offers it then, and never once a user exists.
    const needsFirstAdmin = config.authMode === 'enforced' && store !== undefined && !(await store.users.any());
    return {
      ...publicSettings(config),
      needs_first_admin: needsFirstAdmin,
      features: { alerts: has('/alerts'), prototype_status: has('/prototypes/0/status') },
    };
  });

  app.get<{ Params: { '*': string } }>('/ui/assets/*', route, (request, reply) =>
    sendFileFrom(`${root}/assets`, request, reply, request.params['*'], ASSET_CACHE),
  );
}

/** The built-in dashboard (§13), in a plugin of its own: its headers are set on its routes only. */
export async function register(app: App, { config, store }: Pick<DashboardOptions, 'config' | 'store'>): Promise<void> {
  await app.register(dashboardRoutes, { config, store });
}

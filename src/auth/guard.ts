import type { FastifyInstance } from 'fastify';
import type { Store } from '../store/index.js';
import { type Authenticate, forbidden } from './authenticate.js';
import { PERMISSIONS } from './permissions.js';

/**
 * AUTH_MODE=enforced: every route needs the permission its `access` config names; a route that
 * names none needs `modify` (fail closed). CORS preflight, unknown routes and the documentation
 * stay open. The one exception: creating a user needs `admin` only once a user exists, so the
 * first administrator can be made.
 */
export function registerGuard(app: FastifyInstance, authenticate: Authenticate, store: Store): void {
  app.addHook('onRequest', async (request) => {
    if (request.method === 'OPTIONS' || request.is404) return;
    const url = request.routeOptions.url ?? '';
    if (url === '/docs' || url.startsWith('/docs/')) return;
    const access = request.routeOptions.config.access ?? 'modify';
    if (access === 'public') return;
    if (access === 'admin' && url.startsWith('/users/new') && !(await store.users.any())) return;
    const principal = await authenticate(request);
    if ((principal.permissions & PERMISSIONS[access]) === 0) throw forbidden();
  });
}

import type { FastifyInstance } from 'fastify';
import type { Store } from '../store/index.js';
import { type Authenticate, forbidden } from './authenticate.js';
import { accessBits, type RouteAccess } from './permissions.js';
import { checkTankScope } from './tank-scope.js';

/** Served by plugins that declare no access of their own (Swagger UI and its assets). */
const isDocumentation = (url: string) => url === '/docs' || url.startsWith('/docs/');

/** A route that forgot to say what it needs is treated as a write (fail closed). */
const accessOf = (declared: RouteAccess | undefined): RouteAccess => declared ?? 'modify';

/**
 * AUTH_MODE=enforced: every route needs the permission its `access` config names; a route that
 * names none needs `modify`. CORS preflight, unknown routes (404) and the documentation stay open.
 * The one exception: creating a user needs `admin` only once a user exists, so the first
 * administrator can be made; a request let in that way has no `principal`, and the route creates
 * the user only if it is still the first.
 */
export function registerGuard(app: FastifyInstance, authenticate: Authenticate, store: Store): void {
  app.decorateRequest('principal', undefined);
  // Routes added after this point: one that forgot its `access` is said out loud at start-up.
  app.addHook('onRoute', (route) => {
    if (route.config?.access === undefined && !isDocumentation(route.url) && route.method !== 'OPTIONS') {
      app.log.warn({ method: route.method, url: route.url }, 'route declares no access: it needs the modify permission');
    }
  });
  app.addHook('onRequest', async (request) => {
    if (request.method === 'OPTIONS' || request.is404) return;
    const url = request.routeOptions.url ?? '';
    if (isDocumentation(url)) return;
    const access = accessOf(request.routeOptions.config.access);
    if (access === 'public') return;
    if (access === 'admin' && url.startsWith('/users/new') && !(await store.users.any())) return;
    const principal = await authenticate(request);
    if ((principal.permissions & accessBits(access)) === 0) throw forbidden();
    request.principal = principal;
  });
  // After validation (ids are numbers then): a device token limited to tanks reaches only those.
  app.addHook('preHandler', async (request) => {
    if (request.principal) await checkTankScope(request, store);
  });
}

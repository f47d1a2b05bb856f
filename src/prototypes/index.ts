import type { App } from '../http/app-type.js';
import prototypeRoutes, { type PrototypeRouteDeps } from './routes.js';

/** Prototypes (§5): their routes. */
export async function register(app: App, deps: PrototypeRouteDeps): Promise<void> {
  await app.register(prototypeRoutes, deps);
}

import type { App } from '../http/app-type.js';
import userRoutes, { type UserRouteDeps } from './routes.js';

/** Users and tokens (§6): their routes. */
export async function register(app: App, deps: UserRouteDeps): Promise<void> {
  await app.register(userRoutes, deps);
}

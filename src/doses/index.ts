import type { App } from '../http/app-type.js';
import doseRoutes, { type DoseRouteDeps } from './routes.js';

/** A pump's records (§15): its dose totals and the refills of its bottle. */
export async function register(app: App, deps: DoseRouteDeps): Promise<void> {
  await app.register(doseRoutes, deps);
}

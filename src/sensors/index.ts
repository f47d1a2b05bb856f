import type { App } from '../http/app-type.js';
import sensorRoutes, { type SensorRouteDeps } from './routes.js';

/** Sensors (§4): their routes. */
export async function register(app: App, deps: SensorRouteDeps): Promise<void> {
  await app.register(sensorRoutes, deps);
}

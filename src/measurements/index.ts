import type { App } from '../http/app-type.js';
import measurementRoutes, { type MeasurementRouteDeps } from './routes.js';

/** Measurements (§2): their routes. */
export async function register(app: App, deps: MeasurementRouteDeps): Promise<void> {
  await app.register(measurementRoutes, deps);
}

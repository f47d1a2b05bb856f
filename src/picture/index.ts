import type { App } from '../http/app-type.js';
import pictureRoutes, { type PictureRouteDeps } from './routes.js';

/** The camera picture (§7): its routes; its source's connections close with the app. */
export async function register(app: App, deps: PictureRouteDeps): Promise<void> {
  await app.register(pictureRoutes, deps);
  app.addHook('onClose', async () => deps.services.pictures.close());
}

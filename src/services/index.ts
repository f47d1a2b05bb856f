import type { Auth } from '../auth/index.js';
import type { Config } from '../config.js';
import { actuatorService } from './actuators.js';
import type { ServiceDeps } from './deps.js';
import { historyService } from './history.js';
import { measurementService } from './measurements.js';
import { pictureService } from './pictures.js';
import { prototypeService } from './prototypes.js';
import { sensorService } from './sensors.js';
import { userService } from './users.js';

/** Every write path (and the reads that apply rules), between the routes and the store. */
export function createServices(deps: ServiceDeps, config: Config, auth: Auth) {
  const history = historyService(deps);
  return {
    prototypes: prototypeService(deps),
    sensors: sensorService(deps),
    measurements: measurementService(deps, history),
    history,
    actuators: actuatorService(deps, config.staleAfterMs),
    users: userService(deps, auth, config.authMode),
    pictures: pictureService(deps, { source: config.pictureSource, timeoutMs: config.pictureTimeoutMs, cacheMs: config.pictureCacheMs }),
  };
}

export type Services = ReturnType<typeof createServices>;

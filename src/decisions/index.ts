import type { ChangeBus } from '../core/bus.js';
import type { Logger } from '../core/logger.js';
import type { App } from '../http/app-type.js';
import type { Store } from '../store/index.js';
import { decisionRecorder } from './recorder.js';
import decisionRoutes from './routes.js';

export interface DecisionDeps {
  store: Store;
  bus: ChangeBus;
  now: () => number;
  log: Logger;
}

/** The history of each actuator's decision: recorded as it changes, read by `GET /actuators/{id}/decisions`. */
export async function register(app: App, deps: DecisionDeps): Promise<void> {
  const recorder = decisionRecorder(deps);
  recorder.start();
  app.decorate('decisionsRecorded', () => recorder.idle());
  app.addHook('onClose', () => recorder.stop());
  await app.register(decisionRoutes, deps);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Resolves once the decision changes heard so far are written (tests). */
    decisionsRecorded(): Promise<void>;
  }
}

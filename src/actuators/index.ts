import type { App } from '../http/app-type.js';
import type { ControllerContact } from './controller-contact.js';
import type { DecisionInputs } from './decision-inputs.js';
import actuatorRoutes, { type ActuatorRouteDeps } from './routes.js';

export interface ActuatorDeps extends ActuatorRouteDeps {
  services: ActuatorRouteDeps['services'] & { safety: { inputs: Pick<DecisionInputs, 'stop'>; contact: ControllerContact } };
}

/**
 * Actuators (§3, §14): their routes; the controllers' contact alarms from the start, and at the
 * close the last contacts written and the decision inputs no longer followed.
 */
export async function register(app: App, deps: ActuatorDeps): Promise<void> {
  const { contact, inputs } = deps.services.safety;
  await contact.start();
  app.addHook('onClose', async () => {
    await contact.stop();
    inputs.stop();
  });
  await app.register(actuatorRoutes, deps);
}

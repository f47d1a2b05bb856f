import type { App } from '../http/app-type.js';
import type { ManualRuns } from './manual-runs.js';
import claimRoutes from './routes.js';

export { claimService, type ClaimService, CLAIM_WAIT_MS } from './service.js';
export { relayLink, type RelayLink } from './relay-link.js';
export { MANUAL_RUN_MAX_SECONDS, MANUAL_RUN_MIN_SECONDS, manualRunRefusal } from './manual.js';
export { manualRuns, type ManualRuns } from './manual-runs.js';

/** A dose is a claim: the route of the manual run (the state read is the actuators' own, answered through the claims). */
export async function register(app: App, deps: { services: { manualRuns: ManualRuns } }): Promise<void> {
  await app.register(claimRoutes, { manualRuns: deps.services.manualRuns });
}

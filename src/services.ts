import type { Auth } from './auth/index.js';
import type { Config } from './config/index.js';
import { actuatorService } from './actuators/service.js';
import { controllerContact } from './actuators/controller-contact.js';
import { decisionInputs } from './actuators/decision-inputs.js';
import { keptDecisions } from './actuators/kept-decisions.js';
import { claimService, manualRuns, relayLink } from './claims/index.js';
import type { Timers } from './core/timers.js';
import { doseService } from './doses/service.js';
import type { ServiceDeps } from './core/service-deps.js';
import { historyService } from './history/service.js';
import { measurementService } from './measurements/service.js';
import { pictureService } from './picture/service.js';
import { prototypeService } from './prototypes/service.js';
import { sensorService } from './sensors/service.js';
import { userService } from './users/service.js';

/** Every write path (and the reads that apply rules), between the routes and the store. */
export function createServices(deps: ServiceDeps, config: Config, auth: Auth, timers: Timers) {
  const history = historyService(deps);
  // Made first, so that they hear every reading committed since this process started (`restarted`).
  const decisionInputsKept = decisionInputs({ ...deps, staleAfterMs: config.staleAfterMs, processStartedAt: deps.now() });
  const contact = controllerContact({ ...deps, timers });
  const actuators = actuatorService(deps, { decisions: keptDecisions({ inputs: decisionInputsKept, now: deps.now }), contact });
  // Set by the relay of the live events (PostgreSQL): no claim while this instance is cut off from the others.
  const relay = relayLink();
  const claims = claimService({
    ...deps,
    graceMs: config.claimGraceMs,
    polledState: actuators.polledState,
    keptActuator: (id) => decisionInputsKept.actuator(id),
    relayUp: relay.up,
  });
  return {
    /** What the dosing decision reads, kept in memory; and when each controller was last heard from. */
    safety: { inputs: decisionInputsKept, contact, relay },
    /** A dose is a claim: what a controller that is told to act reads. */
    claims,
    /** Runs asked for by hand, claimed by the controller's next read. */
    manualRuns: manualRuns({ ...deps, decision: actuators.decision }),
    prototypes: prototypeService(deps),
    sensors: sensorService(deps),
    measurements: measurementService(deps, history),
    history,
    actuators,
    doses: doseService(deps, { contact }),
    users: userService(deps, auth, config.authMode, {
      sessionMaxDays: config.sessionMaxDays,
      tokenTtlMs: config.tokenTtlMinutes * 60_000,
    }),
    pictures: pictureService(deps, { source: config.pictureSource, timeoutMs: config.pictureTimeoutMs, cacheMs: config.pictureCacheMs }),
  };
}

export type Services = ReturnType<typeof createServices>;

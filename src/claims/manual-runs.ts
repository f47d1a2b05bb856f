import type { ChangeBus } from '../core/bus.js';
import type { ActuatorWithInterlocks } from '../core/actuator-view.js';
import { Conflict, NotFound } from '../core/errors.js';
import type { Decision } from '../safety/index.js';
import type { Store } from '../store/index.js';
import { manualRunRefusal } from './manual.js';

export interface ManualRunDeps {
  store: Pick<Store, 'transaction'>;
  bus: ChangeBus;
  /** The decision now, not noted as a poll. */
  decision(actuatorId: number): Promise<Decision | undefined>;
}

/**
 * `POST /actuators/{id}/run` (docs/api.md "Hands-on"): asks for one run of `seconds`, which the
 * next read of the actuator's controller claims and is told (claims/service.ts); the dose is
 * recorded `manual: true`. Refused (409, with the reason) while the pump is held for the
 * grower's or the tank's sake: disabled, paused, locked out, interlocked, its bottle empty, a limit.
 */
export function manualRuns({ store, bus, decision }: ManualRunDeps) {
  return {
    async request(actuatorId: number, seconds: number): Promise<ActuatorWithInterlocks> {
      const now = await decision(actuatorId);
      if (!now) throw new NotFound(`Actuator ${actuatorId} not found`);
      if (manualRunRefusal(now.reason) !== null) {
        throw new Conflict(`Actuator ${actuatorId} cannot run now (${now.reason}): ${now.status}`);
      }
      const actuator = await store.transaction(async (tx) => {
        const row = await tx.actuators.requestRun(actuatorId, seconds);
        return row && { ...row, interlocks: await tx.interlocks.of(actuatorId) };
      });
      if (!actuator) throw new NotFound(`Actuator ${actuatorId} not found`);
      bus.publish('actuator', { action: 'updated', actuator });
      return actuator;
    },
  };
}

export type ManualRuns = ReturnType<typeof manualRuns>;

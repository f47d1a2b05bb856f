import type { ActuatorWithInterlocks } from '../core/actuator-view.js';
import { InvalidInput, NotFound } from '../core/errors.js';
import type { ServiceDeps } from '../core/service-deps.js';
import { windowOf } from '../core/window.js';
import type { ControllerContact } from '../actuators/controller-contact.js';
import { addDoses, type DoseBucket, doseBucketSize, wholeBuckets } from './dose-buckets.js';
import type { DoseTotalsQuery } from './schemas.js';
import type { Usage } from '../safety/usual.js';
import { actuatorUsage, usageUnit } from './usage.js';

/** Doses read per page while totalling: memory stays flat over years of doses. */
const PAGE = 5000;

const actuatorNotFound = (id: number) => `Actuator ${id} not found`;

/**
 * A grower's records of a pump (docs/api.md §15): what its doses came to per hour or day, and the
 * refills of its bottle. Each dose takes its volume from the stock where it is recorded
 * (actuators/service.ts `markActivated`).
 */
export function doseService({ store, bus, now }: ServiceDeps, { contact }: { contact: Pick<ControllerContact, 'withLastPolled'> }) {
  return {
    /**
     * The actuator's doses totalled per UTC hour or day, ascending, over the whole buckets the
     * window overlaps; buckets without doses left out.
     */
    async totals(actuatorId: number, query: DoseTotalsQuery): Promise<DoseBucket[]> {
      const size = doseBucketSize(query.bucket ?? '1d');
      if (size === undefined) {
        throw new InvalidInput({ loc: ['query', 'bucket'], msg: 'Input should be 1h or 1d', type: 'enum' });
      }
      const window = wholeBuckets(windowOf(query, now()), size);
      if (!(await store.actuators.get(actuatorId))) throw new NotFound(actuatorNotFound(actuatorId));
      const buckets: DoseBucket[] = [];
      for (let page = await store.activations.amounts(actuatorId, window, PAGE); ;) {
        addDoses(buckets, page, size);
        if (page.length < PAGE) return buckets;
        page = await store.activations.amounts(actuatorId, window, PAGE, page[page.length - 1]);
      }
    },

    /**
     * The actuator's usual dosing per usual_window, learned from its own doses, and the ratio of
     * the last usual_window to it (null until at least 3 days had doses).
     */
    async usage(actuatorId: number): Promise<Usage & { unit: 'ml' | 's'; window: number }> {
      const actuator = await store.actuators.get(actuatorId);
      if (!actuator) throw new NotFound(actuatorNotFound(actuatorId));
      return { ...(await actuatorUsage(store, actuator, now())), unit: usageUnit(actuator), window: actuator.usual_window };
    },

    /**
     * Records a refill: the bottle now holds `stockMl`, and who said so (null in open mode). The
     * actuator's row is locked meanwhile, so a dose reported at the same moment takes its volume
     * from one stock or the other, never from a stock it overwrites. A pump without a flow has no
     * stock to count down: refused (422), as setting `stock_ml` on it is.
     */
    async refill(actuatorId: number, stockMl: number, author: string | null): Promise<ActuatorWithInterlocks> {
      const done = await store.transaction(async (tx) => {
        const current = await tx.actuators.getForUpdate(actuatorId);
        if (!current) throw new NotFound(actuatorNotFound(actuatorId));
        if (current.flow_ml_per_s === null) {
          throw new InvalidInput({
            loc: ['body', 'stock_ml'],
            msg: 'stock_ml needs flow_ml_per_s: set the pump’s flow first',
            type: 'volume_needs_flow',
          });
        }
        const actuator = await tx.actuators.setStock(actuatorId, stockMl);
        if (!actuator) throw new NotFound(actuatorNotFound(actuatorId));
        const refill = await tx.refills.record({ actuator_id: actuatorId, refilled_at: now(), stock_ml: stockMl, author });
        return { actuator: { ...actuator, interlocks: await tx.interlocks.of(actuatorId) }, refill };
      });
      bus.publish('actuator', { action: 'updated', actuator: done.actuator, refill: done.refill });
      return contact.withLastPolled(done.actuator);
    },
  };
}

export type DoseService = ReturnType<typeof doseService>;

import type { Prototype } from '../schemas/prototypes.js';
import type { ServiceDeps } from './deps.js';
import { Conflict, NotFound } from './errors.js';
import { publishRemoved } from './cascade.js';
import { removalRefused } from './removal-refused.js';

export function prototypeService({ store, bus }: ServiceDeps) {
  return {
    list: (): Promise<Prototype[]> => store.prototypes.list(),

    async get(prototypeId: number): Promise<Prototype> {
      const prototype = await store.prototypes.get(prototypeId);
      if (!prototype) throw new NotFound(`Prototype ${prototypeId} not found`);
      return prototype;
    },

    /** Creates a prototype with the id the client chose. */
    async create(prototype: Prototype): Promise<Prototype> {
      const created = await store.prototypes.create(prototype);
      if (!created) throw new Conflict(`Prototype ${prototype.prototype_id} already exists`);
      bus.publish('prototype', { action: 'created', prototype: created });
      return created;
    },

    /**
     * Deletes the prototype; while it has sensors only with `cascade`, which deletes them (and
     * what is below them) with it. Each actuator and sensor deleted is told of, then the prototype.
     */
    async remove(prototypeId: number, cascade: boolean): Promise<void> {
      const result = await store.remove.prototype(prototypeId, cascade);
      if (result.status === 'missing') throw new NotFound(`Prototype ${prototypeId} not found`);
      if (result.status === 'has-dependents') throw removalRefused(`Prototype ${prototypeId}`, result.dependents);
      publishRemoved(bus, result);
      bus.publish('prototype', { action: 'deleted', prototypeId });
    },
  };
}

import type { Prototype } from '../schemas/prototypes.js';
import type { ServiceDeps } from './deps.js';
import { Conflict, NotFound } from './errors.js';

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
  };
}

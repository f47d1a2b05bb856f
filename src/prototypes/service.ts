import { parseDuration } from '../domain/duration.js';
import {
  PAUSE_MAX_SECONDS,
  PAUSE_MIN_SECONDS,
  type Pause,
  type PauseBody,
  type Prototype,
  type PrototypeBase,
  pausedUntil,
  prototypeView,
} from '../domain/prototype.js';
import type { ServiceDeps } from '../core/service-deps.js';
import { Conflict, InvalidInput, NotFound } from '../core/errors.js';
import { publishRemoved } from '../core/cascade.js';
import { removalRefused } from '../core/removal-refused.js';

const prototypeNotFound = (id: number) => `Prototype ${id} not found`;

/** The pause's length in ms: seconds as a number, or a duration text; 1 s to 24 h, else 422. */
export function pauseLengthMs(value: PauseBody['for']): number {
  const ms = typeof value === 'number' ? value * 1000 : parseDuration(value.trim());
  if (ms === undefined || !Number.isFinite(ms) || ms < PAUSE_MIN_SECONDS * 1000 || ms > PAUSE_MAX_SECONDS * 1000) {
    throw new InvalidInput({
      loc: ['body', 'for'],
      msg: `A pause lasts from ${PAUSE_MIN_SECONDS} second to ${PAUSE_MAX_SECONDS / 3600} hours: seconds, or a duration such as PT30M`,
      type: 'pause_length',
    });
  }
  return ms;
}

export function prototypeService({ store, bus, now }: ServiceDeps) {
  const view = (stored: Parameters<typeof prototypeView>[0]) => prototypeView(stored, now());

  return {
    list: async (): Promise<Prototype[]> => (await store.prototypes.list()).map(view),

    async get(prototypeId: number): Promise<Prototype> {
      const prototype = await store.prototypes.get(prototypeId);
      if (!prototype) throw new NotFound(prototypeNotFound(prototypeId));
      return view(prototype);
    },

    /** Creates a prototype with the id the client chose. */
    async create(prototype: PrototypeBase): Promise<Prototype> {
      const created = await store.prototypes.create(prototype);
      if (!created) throw new Conflict(`Prototype ${prototype.prototype_id} already exists`);
      const answer = view(created);
      bus.publish('prototype', { action: 'created', prototype: answer });
      return answer;
    },

    /** Renames the prototype (docs/api.md §5). */
    async rename(prototypeId: number, name: string): Promise<Prototype> {
      const renamed = await store.prototypes.rename(prototypeId, name);
      if (!renamed) throw new NotFound(prototypeNotFound(prototypeId));
      const answer = view(renamed);
      bus.publish('prototype', { action: 'updated', prototype: answer });
      return answer;
    },

    /**
     * Pauses dosing on the prototype from now for `length` (docs/api.md §14); a pause replaces the one
     * before it. The decision of its actuators follows from `paused_until`. Recorded for the
     * journal with who asked (`by`, null in open mode).
     */
    async pause(prototypeId: number, body: PauseBody, by: string | null = null): Promise<Pause> {
      const at = now();
      const until = at + pauseLengthMs(body.for);
      const paused = await store.transaction(async (tx) => {
        const row = await tx.prototypes.setPause(prototypeId, until);
        if (row) await tx.safetyEvents.record({ kind: 'pause', at, actuator_id: null, prototype_id: prototypeId, until, author: by });
        return row;
      });
      if (!paused) throw new NotFound(prototypeNotFound(prototypeId));
      bus.publish('prototype', { action: 'updated', prototype: view(paused) });
      return { prototype_id: prototypeId, paused_until: new Date(until).toISOString() };
    },

    /**
     * Ends the prototype's pause now (nothing to end is fine: the prototype is not paused
     * afterwards either way). Ending a pause still running is recorded for the journal.
     */
    async resume(prototypeId: number, by: string | null = null): Promise<void> {
      const at = now();
      const resumed = await store.transaction(async (tx) => {
        const before = await tx.prototypes.get(prototypeId);
        if (!before) return undefined;
        const row = await tx.prototypes.setPause(prototypeId, null);
        if (pausedUntil(before, at) !== null) {
          await tx.safetyEvents.record({ kind: 'resume', at, actuator_id: null, prototype_id: prototypeId, author: by });
        }
        return row;
      });
      if (!resumed) throw new NotFound(prototypeNotFound(prototypeId));
      bus.publish('prototype', { action: 'updated', prototype: view(resumed) });
    },

    /**
     * Deletes the prototype; while it has sensors only with `cascade`, which deletes them (and
     * what is below them) with it. Each actuator and sensor deleted is told of, then the prototype.
     */
    async remove(prototypeId: number, cascade: boolean): Promise<void> {
      const result = await store.remove.prototype(prototypeId, cascade);
      if (result.status === 'missing') throw new NotFound(prototypeNotFound(prototypeId));
      if (result.status === 'has-dependents') throw removalRefused(`Prototype ${prototypeId}`, result.dependents);
      publishRemoved(bus, result);
      bus.publish('prototype', { action: 'deleted', prototypeId });
    },
  };
}

export type PrototypeService = ReturnType<typeof prototypeService>;

import { type Static, Type } from '@sinclair/typebox';
import { DateTimeOutput, Id } from './schema-common.js';

const prototypeFields = {
  prototype_id: Id('Chosen by the client.'),
  prototype_name: Type.String({ minLength: 1, maxLength: 200 }),
};

/** What a client sends to rename a prototype (docs/api.md §5). */
export const PrototypeRename = Type.Object({ prototype_name: prototypeFields.prototype_name }, { title: 'PrototypeRename' });
export type PrototypeRename = Static<typeof PrototypeRename>;

/** What a client sends to create a prototype. */
export const PrototypeBase = Type.Object(prototypeFields, { title: 'PrototypeBase' });
export type PrototypeBase = Static<typeof PrototypeBase>;

export const Prototype = Type.Object(
  {
    ...prototypeFields,
    paused_until: Type.Union([DateTimeOutput('While dosing is paused: when the pause ends by itself.'), Type.Null()], {
      description: 'Null when not paused, or when the pause has ended.',
    }),
  },
  { title: 'Prototype' },
);
export type Prototype = Static<typeof Prototype>;

/** A prototype as the store keeps it: the pause's end in epoch ms, kept after it has passed. */
export type StoredPrototype = PrototypeBase & { paused_until: number | null };

/** The pause's end while it is still ahead of `now`, else null (an ended pause reads as none). */
export function pausedUntil(stored: Pick<StoredPrototype, 'paused_until'>, now: number): number | null {
  return stored.paused_until !== null && stored.paused_until > now ? stored.paused_until : null;
}

/** The prototype as the API answers it at `now`. */
export function prototypeView(stored: StoredPrototype, now: number): Prototype {
  const until = pausedUntil(stored, now);
  return {
    prototype_id: stored.prototype_id,
    prototype_name: stored.prototype_name,
    paused_until: until === null ? null : new Date(until).toISOString(),
  };
}

/** The shortest and the longest pause (docs/api.md §14): one second to a day. */
export const PAUSE_MIN_SECONDS = 1;
export const PAUSE_MAX_SECONDS = 24 * 60 * 60;

export const PauseBody = Type.Object(
  {
    for: Type.Union([Type.Number(), Type.String({ maxLength: 64 })], {
      description: 'How long to pause: seconds (a number), or a duration text (ISO 8601 `PT2H`, `02:00:00`, `1d`, `3600`). 1 s to 24 h.',
      examples: [3600, 'PT30M'],
    }),
  },
  { title: 'PauseBody' },
);
export type PauseBody = Static<typeof PauseBody>;

export const Pause = Type.Object(
  { prototype_id: Id(), paused_until: DateTimeOutput('When the pause ends by itself.') },
  { title: 'Pause' },
);
export type Pause = Static<typeof Pause>;

export const PrototypeIdParams = Type.Object({ prototype_id: Id() });

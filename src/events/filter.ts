/** Which events a client asked for: the names it listed, and the sensors or the prototype it is about. */

export const EVENT_TYPES = ['measurements', 'actuator', 'sensor', 'prototype', 'alert', 'dose', 'note'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface Subscription {
  types: ReadonlySet<EventType>;
  /** Only events about these sensors (undefined: any). */
  sensorIds?: ReadonlySet<number>;
  /** Only events about this prototype (undefined: any). */
  prototypeId?: number;
}

/** What an event is about: the sensors and prototypes it concerns (a prototype's event: its sensors too). */
export interface Scope {
  sensorIds: readonly number[];
  prototypeIds: readonly number[];
}

/** `measurements,actuator` → the set, or the first name that is not an event type. */
export function parseTypes(list: string | undefined): { types: Set<EventType> } | { unknown: string } {
  if (list === undefined) return { types: new Set(EVENT_TYPES) };
  const types = new Set<EventType>();
  for (const name of list.split(',').map((n) => n.trim())) {
    if (name === '') continue;
    if (!(EVENT_TYPES as readonly string[]).includes(name)) return { unknown: name };
    types.add(name as EventType);
  }
  return { types };
}

/**
 * An event reaches a client when its type was asked for and it concerns one of the client's
 * sensors (when it named some) and the client's prototype (when it named one).
 */
export function wants(subscription: Subscription, type: EventType, scope: Scope): boolean {
  if (!subscription.types.has(type)) return false;
  const { sensorIds, prototypeId } = subscription;
  if (sensorIds && !scope.sensorIds.some((id) => sensorIds.has(id))) return false;
  if (prototypeId !== undefined && !scope.prototypeIds.includes(prototypeId)) return false;
  return true;
}

import type { Scope, Subscription } from './filter.js';

/**
 * The open streams indexed by what each named, so an event visits only the streams it may
 * concern, not every open one: a stream that named sensors is found by them, one that named only
 * a prototype by it, and the rest (no filter of place) are visited for every event.
 */
export function streamIndex<Stream extends { subscription: Subscription }>() {
  const bySensor = new Map<number, Set<Stream>>();
  const byPrototype = new Map<number, Set<Stream>>();
  const unfiltered = new Set<Stream>();

  function keysOf(stream: Stream): [Map<number, Set<Stream>>, number[]] | undefined {
    const { sensorIds, prototypeId } = stream.subscription;
    if (sensorIds) return [bySensor, [...sensorIds]];
    if (prototypeId !== undefined) return [byPrototype, [prototypeId]];
    return undefined;
  }

  return {
    add(stream: Stream): void {
      const keys = keysOf(stream);
      if (!keys) return void unfiltered.add(stream);
      const [map, ids] = keys;
      for (const id of ids) {
        let set = map.get(id);
        if (!set) map.set(id, (set = new Set()));
        set.add(stream);
      }
    },

    delete(stream: Stream): void {
      const keys = keysOf(stream);
      if (!keys) return void unfiltered.delete(stream);
      const [map, ids] = keys;
      for (const id of ids) {
        const set = map.get(id);
        set?.delete(stream);
        if (set?.size === 0) map.delete(id);
      }
    },

    /** The streams an event about this scope may concern (each once). */
    candidates(scope: Scope): Iterable<Stream> {
      const sources: Set<Stream>[] = unfiltered.size > 0 ? [unfiltered] : [];
      for (const id of scope.sensorIds) {
        const set = bySensor.get(id);
        if (set) sources.push(set);
      }
      for (const id of scope.prototypeIds) {
        const set = byPrototype.get(id);
        if (set) sources.push(set);
      }
      // The common case, one set (streams of one sensor): no copy of a thousand entries per event.
      if (sources.length <= 1) return sources[0] ?? [];
      const found = new Set<Stream>();
      for (const set of sources) for (const stream of set) found.add(stream);
      return found;
    },
  };
}

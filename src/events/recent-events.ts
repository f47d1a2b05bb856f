/**
 * The events sent lately, so that a client that reconnects with `Last-Event-ID` is sent what it
 * missed. Bounded in count and in bytes; ids are `<instance>-<sequence>`, so an id from another
 * instance (behind a load balancer) or from before a restart is told apart and answered `reset`.
 */
export interface Numbered {
  seq: number;
  /** About how many bytes it holds, for the bound. */
  size: number;
}

export interface RecentEventsLimits {
  maxEvents: number;
  maxBytes: number;
}

export function recentEvents<E extends Numbered>(instance: string, { maxEvents, maxBytes }: RecentEventsLimits) {
  const kept: E[] = [];
  let bytes = 0;
  let lastSeq = 0;

  return {
    /** The id of the next event: sequence numbers start at 1 on every start. */
    next(): number {
      return ++lastSeq;
    },

    idOf: (seq: number) => `${instance}-${seq}`,

    keep(event: E): void {
      kept.push(event);
      bytes += event.size;
      while (kept.length > maxEvents || (bytes > maxBytes && kept.length > 1)) bytes -= kept.shift()!.size;
    },

    /**
     * The events after the one `lastEventId` names, or undefined when that cannot be told: an id
     * of another instance, one older than what is kept, or one that was never given.
     */
    since(lastEventId: string): E[] | undefined {
      const match = /^(.+)-(\d+)$/.exec(lastEventId.trim());
      if (!match || match[1] !== instance) return undefined;
      const seq = Number(match[2]);
      if (seq > lastSeq) return undefined;
      if (seq === lastSeq) return [];
      const oldest = kept[0];
      // Everything after `seq` must still be here; the first kept event must follow it directly or be older.
      if (!oldest || oldest.seq > seq + 1) return undefined;
      return kept.filter((e) => e.seq > seq);
    },
  };
}

export type RecentEvents<E extends Numbered> = ReturnType<typeof recentEvents<E>>;

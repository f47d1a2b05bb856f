import type { ServerResponse } from 'node:http';
import { type Subscription, wants } from './filter.js';
import type { LiveEvent } from './feed.js';
import { sseComment } from './sse.js';
import { systemTimers, type Timers } from './timers.js';

export interface StreamLimits {
  /**
   * The most a client may have unsent — what waits in the response and in the socket's write
   * buffer — before it is cut off: a client that stops reading costs at most this much memory.
   */
  maxBacklogBytes: number;
  /** How often a comment is written to every stream (proxies and idle limits close silent ones). */
  heartbeatMs: number;
  /**
   * Events that come within this long of the last write to the streams wait and go out together
   * at its end. Each write to a stream is a system call that also wakes the reader: a thousand
   * streams at two hundred events a second are 200,000 of them, more than two cores make, and
   * then every event queues behind the others. An event after a quiet spell goes out at once.
   */
  coalesceMs: number;
}

interface Client {
  res: ServerResponse;
  subscription: Subscription;
  /** Text waiting for the next flush, in the order it came. */
  pending: string;
}

/**
 * The open event streams. Writing never waits for a client: what it has not read yet stays in
 * its buffers, and one whose backlog would pass the bound is disconnected (it reconnects with
 * `Last-Event-ID` and resumes), so a stalled reader neither grows memory nor slows the others.
 */
export function streamRegistry(
  { maxBacklogBytes, heartbeatMs, coalesceMs }: StreamLimits,
  { timers = systemTimers, now = () => performance.now() }: { timers?: Timers; now?: () => number } = {},
) {
  const clients = new Set<Client>();
  // Indexed by what each stream named, so an event visits only the streams it may concern, not
  // every open one: a stream that named sensors is found by them, one that named only a
  // prototype by it, and the rest (no filter of place) are visited for every event.
  const bySensor = new Map<number, Set<Client>>();
  const byPrototype = new Map<number, Set<Client>>();
  const unfiltered = new Set<Client>();

  function keysOf(client: Client): [Map<number, Set<Client>>, number[]] | undefined {
    const { sensorIds, prototypeId } = client.subscription;
    if (sensorIds) return [bySensor, [...sensorIds]];
    if (prototypeId !== undefined) return [byPrototype, [prototypeId]];
    return undefined;
  }

  function index(client: Client): void {
    const keys = keysOf(client);
    if (!keys) return void unfiltered.add(client);
    const [map, ids] = keys;
    for (const id of ids) {
      let set = map.get(id);
      if (!set) map.set(id, (set = new Set()));
      set.add(client);
    }
  }

  function remove(client: Client): void {
    clients.delete(client);
    const keys = keysOf(client);
    if (!keys) return void unfiltered.delete(client);
    const [map, ids] = keys;
    for (const id of ids) {
      const set = map.get(id);
      set?.delete(client);
      if (set?.size === 0) map.delete(id);
    }
  }

  /** The streams an event about this scope may concern (each once). */
  function candidates(scope: LiveEvent['scope']): Iterable<Client> {
    const sources: Set<Client>[] = unfiltered.size > 0 ? [unfiltered] : [];
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
    const found = new Set<Client>();
    for (const set of sources) for (const client of set) found.add(client);
    return found;
  }
  let cutOff = 0;
  let heartbeat: NodeJS.Timeout | undefined;
  let closed = false;
  let opened = 0;

  /** Writes, or cuts the client off when its backlog would pass the bound; false when cut off. */
  function write(client: Client, text: string): boolean {
    const { res } = client;
    if (res.destroyed) return false;
    // Past the bound already: one more event of any size is let through, no further.
    if (res.writableLength > maxBacklogBytes) {
      cutOff++;
      remove(client);
      res.destroy();
      return false;
    }
    res.write(text);
    return true;
  }

  const waiting = new Set<Client>();
  let flushTimer: unknown;
  let lastFlush = -Infinity;

  function flush(): void {
    flushTimer = undefined;
    lastFlush = now();
    for (const client of waiting) {
      const text = client.pending;
      client.pending = '';
      write(client, text);
    }
    waiting.clear();
  }

  /**
   * Sends the texts of one event (or comment) to its clients: at once after a quiet spell, else
   * at the end of the coalescing window, behind what already waits.
   */
  function send(targets: Iterable<Client>, textFor: (client: Client) => string | undefined): void {
    const at = now();
    const atOnce = flushTimer === undefined && at - lastFlush >= coalesceMs;
    for (const client of targets) {
      const text = textFor(client);
      if (text === undefined) continue;
      if (atOnce) write(client, text);
      else {
        client.pending += text;
        waiting.add(client);
      }
    }
    if (atOnce) lastFlush = at;
    else if (flushTimer === undefined && waiting.size > 0) flushTimer = timers.set(flush, lastFlush + coalesceMs - at);
  }

  function beat(): void {
    const comment = sseComment('keep-alive');
    send(clients, () => comment);
  }

  return {
    /** Registers a stream whose headers are sent; `first` is written to it before anything else. */
    open(res: ServerResponse, subscription: Subscription, first: readonly string[]): void {
      if (closed) {
        res.end();
        return;
      }
      const client: Client = { res, subscription, pending: '' };
      opened++;
      clients.add(client);
      index(client);
      res.once('close', () => {
        remove(client);
        waiting.delete(client);
      });
      for (const text of first) if (!write(client, text)) return;
      if (!heartbeat) {
        heartbeat = setInterval(beat, heartbeatMs);
        heartbeat.unref();
      }
    },

    deliver(event: LiveEvent): void {
      send(candidates(event.scope), (client) =>
        wants(client.subscription, event.type, event.scope) ? event.textFor(client.subscription) : undefined,
      );
    },

    /** The same text to every stream, whatever it filters (a `reset`). */
    broadcast(text: string): void {
      send(clients, () => text);
    },

    /** Streams opened since start (open or not now). */
    get opened(): number {
      return opened;
    },

    /** Streams open now. */
    get count(): number {
      return clients.size;
    },

    /** Streams cut off for a backlog over the bound, since start. */
    get cutOff(): number {
      return cutOff;
    },

    /** Ends every stream (on shutdown): clients reconnect, to another instance if there is one. */
    closeAll(): void {
      closed = true;
      clearInterval(heartbeat);
      heartbeat = undefined;
      if (flushTimer !== undefined) timers.clear(flushTimer);
      flush();
      for (const client of [...clients]) {
        remove(client);
        client.res.end();
      }
    },
  };
}

export type StreamRegistry = ReturnType<typeof streamRegistry>;

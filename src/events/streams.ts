import type { ServerResponse } from 'node:http';
import { type Subscription, wants } from './filter.js';
import type { LiveEvent } from './feed.js';
import { coalescingWindow } from './coalescing-window.js';
import { sseComment } from './sse.js';
import { type StreamBounds, streamPlaces } from './stream-places.js';
import { streamIndex } from './stream-index.js';
import type { Changes } from '../core/bus.js';
import { systemTimers, type Timers } from '../core/timers.js';

export interface StreamLimits extends StreamBounds {
  /**
   * The most a client may have unsent — what waits in the response and in the socket's write
   * buffer — before it is cut off: a client that stops reading costs at most this much memory.
   */
  maxBacklogBytes: number;
  /** How often a comment is written to every stream (proxies and idle limits close silent ones). */
  heartbeatMs: number;
  /** Events within this long of the last write to the streams go out together at its end (coalescing-window.ts). */
  coalesceMs: number;
}

/** Whose token opened a stream (AUTH_MODE=enforced): the stream lasts as long as the token is valid. */
export interface StreamHolder {
  userId: number;
  /** The user's token generation the token was issued in. */
  generation: number;
  /** A session token: the user's session generation it was issued in (a logout ends it). */
  sessionGeneration?: number;
  /** A device token: its id (its revocation ends it). */
  tokenId?: number;
  /** The permission bits of which the token must keep one for the stream to stay open. */
  requires: number;
  /** When the token expires (ms since the epoch). */
  expiresAt: number;
}

/** Who opens a stream: what it is counted by for its bound, and whose token keeps it open. */
export interface StreamOwner {
  /** The client it counts against (EVENTS_MAX_STREAMS_PER_CLIENT): a token, or an address. */
  client: string;
  /** Whose token opened it (AUTH_MODE=enforced). */
  holder?: StreamHolder;
}

interface Client {
  res: ServerResponse;
  /** The client whose place it holds. */
  place: string;
  subscription: Subscription;
  holder?: StreamHolder;
  /** The alarm that ends the stream when its token expires. */
  expiry?: unknown;
  /** Text waiting for the next flush, in the order it came. */
  pending: string;
}

/** The clock a registry ends streams by, when their tokens expire. */
export interface StreamClock {
  timers: Timers;
  now: () => number;
  /**
   * The coalescing window's alarms and clock: the machine's by default, since the window is about
   * system calls, not the service's time (tests that move the service's clock still get events).
   */
  window?: { timers: Timers; now: () => number };
}

/**
 * The open event streams. Writing never waits for a client: what it has not read yet stays in
 * its buffers, and one whose backlog would pass the bound is disconnected (it reconnects with
 * `Last-Event-ID` and resumes), so a stalled reader neither grows memory nor slows the others.
 *
 * A stream opened with a token ends when the token stops being valid: at its expiry, and when
 * its user's tokens are revoked. It just ends — no event says why: the client reconnects as after
 * any drop, and its token, refused now, gets a 401.
 */
export function streamRegistry(
  { maxBacklogBytes, heartbeatMs, coalesceMs, maxStreams, maxPerClient }: StreamLimits,
  { timers, now, window }: StreamClock,
) {
  const clients = new Set<Client>();
  const places = streamPlaces({ maxStreams, maxPerClient });
  /** Streams with text waiting for the coalescing window to end. */
  const waiting = new Set<Client>();
  const byUser = new Map<number, Set<Client>>();
  const byPlace = streamIndex<Client>();

  /** Forgets a stream and gives its place back; once only, however many ways it ends. */
  function remove(client: Client): void {
    if (!clients.delete(client)) return;
    places.release(client.place);
    waiting.delete(client);
    byPlace.delete(client);
    if (client.holder) {
      timers.clear(client.expiry);
      const streams = byUser.get(client.holder.userId);
      streams?.delete(client);
      if (streams?.size === 0) byUser.delete(client.holder.userId);
    }
  }

  let cutOff = 0;
  let heartbeat: NodeJS.Timeout | undefined;
  let closed = false;
  let opened = 0;
  let refused = 0;

  /**
   * Writes, or cuts the client off when its backlog is past the bound already (one more event of
   * any size is let through, no further); false when cut off. Text waiting for the coalescing
   * window is not counted: it waits because the service chose to, not because the client is slow
   * (two batches of 10,000 measurements in one window are near 2 MB for a reader that keeps up),
   * and it is at most one window's events, written or cut at the window's end.
   */
  function write(client: Client, text: string): boolean {
    const { res } = client;
    if (res.destroyed) {
      remove(client);
      return false;
    }
    if (res.writableLength > maxBacklogBytes) {
      cutOff++;
      remove(client);
      res.destroy();
      return false;
    }
    res.write(text);
    return true;
  }

  function end(client: Client): void {
    remove(client);
    client.res.end();
  }

  /** Ends the stream at its token's expiry; an alarm that rings early (the longest is ~24 days) is set again. */
  function armExpiry(client: Client, holder: StreamHolder): void {
    const left = holder.expiresAt - now();
    if (left <= 0) return end(client);
    client.expiry = timers.set(() => armExpiry(client, holder), left);
  }

  function endWhere(candidates: Client[], ends: (holder: StreamHolder) => boolean): void {
    for (const client of candidates) if (client.holder && ends(client.holder)) end(client);
  }

  /** Writes what waited for the end of the coalescing window. */
  function flushWaiting(): void {
    for (const client of waiting) {
      const text = client.pending;
      client.pending = '';
      write(client, text);
    }
    waiting.clear();
  }
  const coalescing = coalescingWindow(coalesceMs, window ?? { timers: systemTimers, now: () => performance.now() }, flushWaiting);

  /**
   * Sends the texts of one event (or comment) to its clients: at once after a quiet spell, else
   * at the end of the coalescing window, behind what already waits.
   */
  function send(targets: Iterable<Client>, textFor: (client: Client) => string | undefined): void {
    const atOnce = coalescing.writesNow();
    for (const client of targets) {
      const text = textFor(client);
      if (text === undefined) continue;
      if (atOnce) write(client, text);
      else {
        client.pending += text;
        waiting.add(client);
      }
    }
    if (!atOnce && waiting.size > 0) coalescing.flushAtEnd();
  }

  function beat(): void {
    const comment = sseComment('keep-alive');
    send(clients, () => comment);
  }

  return {
    /**
     * Why a new stream of `client` cannot be opened now (a bound is reached), or undefined. Asked
     * right before `open`, with no wait between, so that no other stream takes the place meanwhile.
     */
    refusal(client: string): string | undefined {
      const reason = places.refusal(client);
      if (reason !== undefined) refused++;
      return reason;
    },

    /**
     * Registers a stream whose headers are sent; `first` is written to it before anything else.
     * It holds a place of its owner's client until it ends; with a `holder`, it ends when the
     * holder's token expires or is revoked.
     */
    open(
      res: ServerResponse,
      subscription: Subscription,
      first: readonly string[],
      { client: place, holder }: StreamOwner = { client: '' },
    ): void {
      // A client gone while its request was checked has nothing to hold a place for.
      if (closed || res.destroyed) {
        res.end();
        return;
      }
      const client: Client = { res, subscription, place, holder, pending: '' };
      opened++;
      clients.add(client);
      places.take(place);
      byPlace.add(client);
      res.once('close', () => remove(client));
      for (const text of first) if (!write(client, text)) return;
      if (holder) {
        let streams = byUser.get(holder.userId);
        if (!streams) byUser.set(holder.userId, (streams = new Set()));
        streams.add(client);
        armExpiry(client, holder);
      }
      if (!heartbeat) {
        heartbeat = setInterval(beat, heartbeatMs);
        heartbeat.unref();
      }
    },

    deliver(event: LiveEvent): void {
      send(byPlace.candidates(event.scope), (client) =>
        wants(client.subscription, event.type, event.scope) ? event.textFor(client.subscription) : undefined,
      );
    },

    /** Ends the user's streams whose token was revoked (see the bus's `tokensRevoked`). */
    revoke({ userId, generation, sessionGeneration, tokenId }: Changes['tokensRevoked']): void {
      endWhere(
        [...(byUser.get(userId) ?? [])],
        (holder) =>
          (generation !== undefined && holder.generation < generation) ||
          (sessionGeneration !== undefined && holder.sessionGeneration !== undefined && holder.sessionGeneration < sessionGeneration) ||
          (tokenId !== undefined && holder.tokenId === tokenId),
      );
    },

    /** The users whose tokens hold streams open now. */
    holders(): number[] {
      return [...byUser.keys()];
    },

    /** Ends the streams whose holder `stillValid` no longer accepts. */
    endUnless(stillValid: (holder: StreamHolder) => boolean): void {
      endWhere(
        [...byUser.values()].flatMap((set) => [...set]),
        (holder) => !stillValid(holder),
      );
    },

    /** The same text to every stream, whatever it filters (a `reset`). */
    broadcast(text: string): void {
      send(clients, () => text);
    },

    /** The most a stream may have unsent before it is cut off (a resume's replay must fit within it). */
    maxBacklogBytes,

    /** Streams opened since start (open or not now). */
    get opened(): number {
      return opened;
    },

    /** Streams open now. */
    get count(): number {
      return clients.size;
    },

    /** The most streams open at once (EVENTS_MAX_STREAMS). */
    maxStreams,

    /** New streams refused for a bound reached, since start. */
    get refused(): number {
      return refused;
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
      coalescing.flushNow();
      for (const client of [...clients]) end(client);
    },
  };
}

export type StreamRegistry = ReturnType<typeof streamRegistry>;

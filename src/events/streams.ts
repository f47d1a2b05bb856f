import type { ServerResponse } from 'node:http';
import { type Subscription, wants } from './filter.js';
import type { LiveEvent } from './feed.js';
import { sseComment } from './sse.js';

export interface StreamLimits {
  /**
   * The most a client may have unsent — what waits in the response and in the socket's write
   * buffer — before it is cut off: a client that stops reading costs at most this much memory.
   */
  maxBacklogBytes: number;
  /** How often a comment is written to every stream (proxies and idle limits close silent ones). */
  heartbeatMs: number;
}

interface Client {
  res: ServerResponse;
  subscription: Subscription;
}

/**
 * The open event streams. Writing never waits for a client: what it has not read yet stays in
 * its buffers, and one whose backlog would pass the bound is disconnected (it reconnects with
 * `Last-Event-ID` and resumes), so a stalled reader neither grows memory nor slows the others.
 */
export function streamRegistry({ maxBacklogBytes, heartbeatMs }: StreamLimits) {
  const clients = new Set<Client>();
  let cutOff = 0;
  let heartbeat: NodeJS.Timeout | undefined;
  let closed = false;

  /** Writes, or cuts the client off when its backlog would pass the bound; false when cut off. */
  function write(client: Client, text: string): boolean {
    const { res } = client;
    if (res.destroyed) return false;
    // Past the bound already: one more event of any size is let through, no further.
    if (res.writableLength > maxBacklogBytes) {
      cutOff++;
      clients.delete(client);
      res.destroy();
      return false;
    }
    res.write(text);
    return true;
  }

  function beat(): void {
    const comment = sseComment('keep-alive');
    for (const client of clients) write(client, comment);
  }

  return {
    /** Registers a stream whose headers are sent; `first` is written to it before anything else. */
    open(res: ServerResponse, subscription: Subscription, first: readonly string[]): void {
      if (closed) {
        res.end();
        return;
      }
      const client: Client = { res, subscription };
      clients.add(client);
      res.once('close', () => clients.delete(client));
      for (const text of first) if (!write(client, text)) return;
      if (!heartbeat) {
        heartbeat = setInterval(beat, heartbeatMs);
        heartbeat.unref();
      }
    },

    deliver(event: LiveEvent): void {
      for (const client of clients) {
        if (!wants(client.subscription, event.type, event.scope)) continue;
        const text = event.textFor(client.subscription);
        if (text !== undefined) write(client, text);
      }
    },

    /** The same text to every stream, whatever it filters (a `reset`). */
    broadcast(text: string): void {
      for (const client of clients) write(client, text);
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
      for (const client of clients) client.res.end();
      clients.clear();
    },
  };
}

export type StreamRegistry = ReturnType<typeof streamRegistry>;

import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

const REFUSAL = JSON.stringify({ detail: 'Service is shutting down, try again shortly.' });

/**
 * The first part of a graceful stop. While requests already in flight finish, the server keeps
 * accepting connections and answers every new request 503 with `Retry-After` and
 * `Connection: close`: a client sees a clear answer it can retry elsewhere, not a reset. Once the
 * requests in flight are done, the caller closes the server (new connections are then refused).
 */
export function drainer() {
  let draining = false;
  let inFlight = 0;
  let whenIdle: (() => void) | undefined;
  const onStart: (() => void)[] = [];

  const finished = () => {
    inFlight--;
    if (draining && inFlight === 0) whenIdle?.();
  };

  function refuse(req: IncomingMessage, res: ServerResponse): void {
    // The body is read first: closing a connection with unread bytes would reset it.
    req.resume();
    req.once('end', () => {
      res.writeHead(503, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(REFUSAL),
        'retry-after': '5',
        connection: 'close',
      });
      res.end(REFUSAL);
    });
  }

  return {
    get draining(): boolean {
      return draining;
    },

    /** `listener`, answering 503 once draining and counting the requests it lets through. */
    wrap(listener: RequestListener): RequestListener {
      return (req, res) => {
        if (draining) return refuse(req, res);
        inFlight++;
        res.on('close', finished);
        listener(req, res);
      };
    },

    /** Runs when the drain starts: for requests that would never finish by themselves (event streams). */
    onStart(listener: () => void): void {
      onStart.push(listener);
    },

    /** Starts refusing new requests; resolves once the requests in flight have finished. */
    start(): Promise<void> {
      draining = true;
      for (const listener of onStart) listener();
      if (inFlight === 0) return Promise.resolve();
      return new Promise((resolve) => {
        whenIdle = resolve;
      });
    },
  };
}

export type Drainer = ReturnType<typeof drainer>;

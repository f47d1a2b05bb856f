import { createServer, type RequestListener, type Server } from 'node:http';
import type { Config } from './config/index.js';

/** Longer than the 60 s idle time of common load balancers, so they close first, never mid-request. */
const KEEP_ALIVE_TIMEOUT_MS = 72_000;

/**
 * The HTTP server with the limits that keep slow or idle clients from holding it down:
 * - headers and the whole request (body included) must arrive within their time limits, or the
 *   client gets 408 and the connection is closed. The response is not limited, so long exports
 *   and streams go on as long as the client reads them;
 * - a connection on which nothing moves either way for the idle limit is closed (a client that
 *   stops reading a long response included);
 * - at most `httpMaxConnections` connections are open; a new one beyond that is closed at once,
 *   so file descriptors are never exhausted and the connections already open keep being served.
 */
export function httpServer(config: Config, listener: RequestListener): Server {
  const server = createServer(
    {
      headersTimeout: config.httpHeadersTimeoutMs,
      requestTimeout: config.httpRequestTimeoutMs,
      // How often the two request limits are checked: often enough that they hold to within a fraction.
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(config.httpHeadersTimeoutMs / 4))),
    },
    listener,
  );
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.maxConnections = config.httpMaxConnections;
  server.setTimeout(config.httpIdleTimeoutMs);
  return server;
}

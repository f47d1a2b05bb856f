import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { MAX_ID } from '../domain/schema-common.js';
import type { MaybePromise, PolledReads } from '../store/index.js';
import { measurementJson } from '../core/json-text.js';
import type { RequestObserver } from './metrics.js';
import { isPromise } from '../core/maybe-promise.js';

const LAST = /^\/measurements\/(\d{1,10})\/last\/?$/;
const STATE = /^\/actuators\/(\d{1,10})\/state\/?$/;

export interface HotReadOptions {
  polled: Pick<PolledReads, 'lastMeasurement'>;
  /**
   * The actuator's decision now as JSON text, noted as the controller's poll (the same as the
   * route's), or undefined for an unknown actuator; without a promise when its inputs are kept in memory.
   */
  actuatorState: (actuatorId: number) => MaybePromise<{ json: string } | undefined>;
  /** What the CORS plugin exposes, so these answers carry the same headers as the route's. */
  exposedHeaders: readonly string[];
  /** The headers the app's own hooks put on every response. */
  headers?: Readonly<Record<string, string>>;
  /** False while the server drains, or when every request must go through the full pipeline. */
  active: () => boolean;
  /** Request metrics of the two routes answered here (status 200), with the labels their routes would get. */
  observe: { last: RequestObserver; state: RequestObserver };
  /** Request logging (level info and below): the same `request` line the other routes write. */
  log?: { logger: FastifyBaseLogger; nextRequestId: () => string };
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const JSON_TYPE = 'application/json; charset=utf-8';

const headerList = (headers: Readonly<Record<string, string>>): string[] => Object.entries(headers).flat();

/**
 * The two reads devices poll all day — `GET /measurements/{id}/last` (dashboards) and
 * `GET /actuators/{id}/state` (pump controllers) — answered in front of Fastify's request
 * pipeline (routing, hooks, validation, serialization), which costs more than the answer itself
 * once the store keeps it in memory. The state is the one decision the route answers, on the
 * inputs kept in memory (actuators/decision-inputs.ts): no store read once they are kept.
 *
 * Only the plain case is answered here: a GET of exactly that path with an id in range, no query
 * string, and a row to answer with. Everything else — an unknown id (404), a value out of range
 * (422), a query string, HEAD, a draining server, a store error — goes on to the Fastify route,
 * which answers it as before. The app enables this only where the full pipeline would add
 * nothing: AUTH_MODE=open and CORS_ORIGINS=*. Its answers carry the same status, headers and body
 * as the route's (a test compares them).
 */
export function hotReads(options: HotReadOptions): (req: IncomingMessage, res: ServerResponse, next: Handler) => void {
  const { polled, actuatorState, active, log, observe } = options;
  // The headers the full pipeline sends with these answers: the app's own, CORS for any origin, then the type.
  const cors = {
    ...options.headers,
    'access-control-allow-origin': '*',
    'access-control-expose-headers': options.exposedHeaders.join(', '),
  };
  // As flat [name, value, …] lists, to which each answer adds its length: an object spread with
  // a key added would take V8's slow path on every answer.
  const lastHeaders = headerList({ ...cors, 'content-type': JSON_TYPE });
  // A decision is only good for the moment it is made: no cache or proxy may replay it.
  const stateHeaders = headerList({ ...cors, 'cache-control': 'no-store', 'content-type': JSON_TYPE });

  const then = <T, U>(value: MaybePromise<T>, f: (v: T) => MaybePromise<U>): MaybePromise<U> =>
    isPromise(value) ? value.then(f) : f(value);

  /** The body to answer with, or undefined when the route must answer (no such row). */
  const lastBody = (sensorId: number) => then(polled.lastMeasurement(sensorId), (m) => m && measurementJson(m));
  const stateBody = (actuatorId: number) => then(actuatorState(actuatorId), (state) => state?.json);

  return function hotRead(req, res, next) {
    const url = req.url ?? '';
    if (req.method !== 'GET' || url.length > 40 || !active()) return next(req, res);
    const last = LAST.exec(url);
    const state = last ? null : STATE.exec(url);
    const id = Number((last ?? state)?.[1]);
    if (!(id <= MAX_ID)) return next(req, res);
    const started = performance.now();
    const headers = last ? lastHeaders : stateHeaders;
    const finish = (body: string | undefined) => {
      if (body === undefined) return next(req, res);
      res.writeHead(200, [...headers, 'content-length', Buffer.byteLength(body)]);
      res.end(body);
      const elapsed = performance.now() - started;
      (last ? observe.last : observe.state)(elapsed / 1000);
      if (log)
        log.logger.info(
          { reqId: log.nextRequestId(), method: req.method, url, status: 200, ms: Math.round(elapsed * 100) / 100 },
          'request',
        );
    };
    // A store error is the route's to report, in the contract's shape.
    const fallBack = () => {
      if (!res.headersSent) next(req, res);
    };
    let body: MaybePromise<string | undefined>;
    try {
      body = last ? lastBody(id) : stateBody(id);
    } catch {
      return fallBack();
    }
    if (isPromise(body)) body.then(finish, fallBack);
    else finish(body);
  };
}

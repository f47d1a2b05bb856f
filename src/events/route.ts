import { createHash } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { forbidden } from '../auth/authenticate.js';
import { addressBucket } from '../auth/login-throttle.js';
import { PERMISSIONS } from '../auth/permissions.js';
import { HttpError } from '../http/errors.js';
import { withoutToken } from '../http/redact.js';
import { errorResponses, Id } from '../domain/schema-common.js';
import { InvalidInput, NotFound } from '../core/errors.js';
import type { Store } from '../store/index.js';
import type { EventFeed } from './feed.js';
import { EVENT_TYPES, parseTypes, type Subscription } from './filter.js';
import { sseRetry } from './sse.js';
import type { StreamRegistry } from './streams.js';

/** How long a client waits before reconnecting: soon, and spread out by the clients' own jitter. */
export const RETRY_MS = 3000;
/** How soon a client refused for the stream bounds may try again (in seconds, for `Retry-After`). */
export const FULL_RETRY_AFTER_S = 10;

export const EventsQuery = Type.Object({
  sensor_id: Type.Optional(Type.Array(Id(), { description: 'Only events about these sensors (repeatable).' })),
  prototype_id: Type.Optional(Id('Only events about this prototype and its sensors.')),
  types: Type.Optional(
    Type.String({
      description: `Comma-separated subset of: ${EVENT_TYPES.join(', ')}. Default: all.`,
      examples: ['measurements,actuator'],
    }),
  ),
  access_token: Type.Optional(
    Type.String({ description: 'AUTH_MODE=enforced: the bearer token, for clients that cannot set headers (EventSource). Never logged.' }),
  ),
});

const DESCRIPTION = [
  'Server-Sent Events (`text/event-stream`): dashboards and pump controllers are told of changes instead of polling.',
  'Events, each with an `id:`, sent only after the change is committed, in commit order:',
  '`measurements` (data: the JSON array of the Measurements one commit stored, only those of the sensors asked for);',
  '`actuator` (data: `{"actuator": Actuator, "state": ActuatorActivation}` whenever the actuator or its decision changes,',
  'including when its activation period elapses or its sensor turns stale, at that moment; `{"deleted": id}` after a delete);',
  '`sensor`, `prototype` (data: the object after a create or update, `{"deleted": id}` after a delete);',
  '`dose` (data: each dose recorded, as GET /actuators/{actuator_id}/activations answers it, with its actuator_id and',
  'volume_ml; about the actuator’s sensor and prototype);',
  '`note` (data: the Note after it is written or changed, `{"deleted": note_id, "prototype_id": …}` after a delete; it',
  'concerns its prototype and that prototype’s sensors);',
  '`reset` (data: `{"reason": …}`): reload what you show — sent when `Last-Event-ID` names an event no longer kept (or of',
  'another instance) or what was missed is more than the 1 MiB backlog bound, after synthetic data replaced measurements, after a measurement was deleted (to the streams of its',
  'sensor, under the type `measurements`; data: `{"reason": "measurement deleted", "sensor_id": …, "measurement_id": …}`,',
  'so a client that keeps the rows may drop just that one), and after a lost link between instances. A cascade delete',
  'tells of each actuator (`{"deleted": id}`), then each sensor, then the prototype it removed.',
  'Filters: `sensor_id` (repeatable) and `prototype_id` keep the events about those sensors / that prototype (a prototype',
  'event concerns its sensors too); both given, an event must match both. Unknown ids → 404; an unknown type → 422.',
  'A comment line every 15 s keeps the stream alive; `retry:` advises 3 s between reconnections. A client whose unsent',
  'backlog passes 1 MiB is disconnected (it reconnects and resumes with `Last-Event-ID`). Several instances on one',
  'PostgreSQL send every event to every stream; ids name the instance, so a resume on another instance gets `reset`.',
  'Open streams are bounded (EVENTS_MAX_STREAMS in all, EVENTS_MAX_STREAMS_PER_CLIENT per token in enforced mode, per',
  'address otherwise): past either, a new stream gets 503 with `Retry-After`.',
  'AUTH_MODE=enforced: needs the read permission (2); a token with control (16) but not read may open a stream of',
  '`types=actuator` only (any other stream: 403). The token may be given as `?access_token=`. The stream ends when',
  'the token stops being valid: at its expiry, at a logout of its user for a token obtained with a password, at the',
  'revocation of a device token, at the removal of its user (on every instance), and within a minute when the users',
  'command line revokes or removes the user or takes away the permission the stream needs. It just ends, without an',
  'event: reconnecting with that token then gets 401 (403 without the permission), the sign to log in again.',
].join(' ');

/**
 * What a stream counts against for EVENTS_MAX_STREAMS_PER_CLIENT: its token in enforced mode (by a
 * digest: the token itself is not kept), its remote address otherwise — an IPv6 one by its /64, as
 * the login throttle counts it, since one machine commonly holds a whole /64.
 */
function clientOf(request: FastifyRequest): string {
  const token = request.principal?.token;
  if (token !== undefined) return `token ${createHash('sha256').update(token).digest('base64url')}`;
  return `address ${addressBucket(request.ip)}`;
}

export interface EventRouteDeps {
  store: Pick<Store, 'sensors' | 'prototypes'>;
  feed: EventFeed;
  streams: StreamRegistry;
}

/** The client's filters, checked: the types it names exist, and so do the sensors and prototype. */
async function subscriptionOf(
  store: EventRouteDeps['store'],
  query: { sensor_id?: number[]; prototype_id?: number; types?: string },
): Promise<Subscription> {
  const parsed = parseTypes(query.types);
  if ('unknown' in parsed) {
    throw new InvalidInput({
      loc: ['query', 'types'],
      msg: `Unknown event type "${parsed.unknown}" (known: ${EVENT_TYPES.join(', ')})`,
      type: 'enum',
    });
  }
  if (query.sensor_id !== undefined) {
    const known = await store.sensors.existing(query.sensor_id);
    const missing = query.sensor_id.find((id) => !known.has(id));
    if (missing !== undefined) throw new NotFound(`Sensor ${missing} not found`);
  }
  if (query.prototype_id !== undefined && !(await store.prototypes.exists(query.prototype_id))) {
    throw new NotFound(`Prototype ${query.prototype_id} not found`);
  }
  return {
    types: parsed.types,
    sensorIds: query.sensor_id === undefined ? undefined : new Set(query.sensor_id),
    prototypeId: query.prototype_id,
  };
}

const eventRoutes: FastifyPluginAsyncTypebox<EventRouteDeps> = async (app, { store, feed, streams }) => {
  app.get('/events', {
    // A pump controller's token (control, without read) may follow its actuators: `types=actuator` only.
    config: { access: ['read', 'control'], tokenInQuery: true },
    schema: {
      tags: ['Live events'],
      summary: 'Live Events',
      operationId: 'liveEvents',
      description: DESCRIPTION,
      querystring: EventsQuery,
      produces: ['text/event-stream'],
      response: errorResponses(401, 403, 404, 422, 503),
    },
    handler: async (request, reply) => {
      const subscription = await subscriptionOf(store, request.query);
      const actuatorsOnly = subscription.types.size > 0 && [...subscription.types].every((type) => type === 'actuator');
      const principal = request.principal;
      // What the stream needs to stay open: read, or for actuator events alone read or control.
      const requires = actuatorsOnly ? PERMISSIONS.read | PERMISSIONS.control : PERMISSIONS.read;
      if (principal && (principal.permissions & requires) === 0) throw forbidden();
      // From here on nothing waits: the place checked free is still free when the stream takes it.
      const client = clientOf(request);
      const refusal = streams.refusal(client);
      // The connection is closed too: a refused client waiting on it would hold a connection idle.
      if (refusal !== undefined) throw new HttpError(503, refusal, { 'Retry-After': String(FULL_RETRY_AFTER_S), connection: 'close' });
      // Worked out after the last await too: nothing committed can slip between the resume and the stream.
      const first = [sseRetry(RETRY_MS)];
      const lastEventId = request.headers['last-event-id'];
      if (typeof lastEventId === 'string' && lastEventId !== '')
        first.push(...feed.resume(lastEventId, subscription, streams.maxBacklogBytes));
      reply.hijack();
      // The headers set so far (CORS) go out with the stream's own.
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
      reply.raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        // Proxies that buffer responses (nginx) would hold the events back.
        'x-accel-buffering': 'no',
      });
      // A stream the client ends never finishes, and Fastify's response hook (the request line) never
      // runs for it: the line is written here instead, the token left out all the same.
      reply.raw.once('close', () => {
        if (reply.raw.writableFinished) return;
        const ms = Math.round(reply.elapsedTime * 100) / 100;
        request.log.info({ method: request.method, url: withoutToken(request.url), status: 200, ms }, 'request');
      });
      const holder = principal && {
        userId: principal.user_id,
        generation: principal.generation,
        sessionGeneration: principal.sessionGeneration,
        tokenId: principal.tokenId,
        requires,
        expiresAt: principal.expiresAt,
      };
      streams.open(reply.raw, subscription, first, { client, holder });
    },
  });
};

export default eventRoutes;

import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  Conflict,
  Forbidden,
  HasDependents,
  InsufficientStorage,
  InvalidInput,
  NotFound,
  TooManyAttempts,
  Unauthenticated,
  type ValidationIssue,
} from '../core/errors.js';

/** An error with the status and `detail` the client should see, and any fields the body carries beside `detail`. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: string | ValidationIssue[],
    readonly headers: Record<string, string> = {},
    readonly fields: Record<string, unknown> = {},
  ) {
    super(typeof detail === 'string' ? detail : 'Validation failed');
    this.name = 'HttpError';
  }
}

const BEARER_CHALLENGE = { 'WWW-Authenticate': 'Bearer' };

/** A service's refusal as the contract answers it; undefined for any other error. */
function refusal(error: unknown): HttpError | undefined {
  if (error instanceof NotFound) return new HttpError(404, error.message);
  if (error instanceof InvalidInput) return new HttpError(422, error.issues);
  if (error instanceof HasDependents) return new HttpError(409, error.message, {}, { dependents: error.dependents });
  if (error instanceof Conflict) return new HttpError(409, error.message);
  if (error instanceof Unauthenticated) return new HttpError(401, error.message, BEARER_CHALLENGE);
  if (error instanceof Forbidden) return new HttpError(403, error.message);
  if (error instanceof InsufficientStorage) return new HttpError(507, error.message);
  if (error instanceof TooManyAttempts) return new HttpError(429, error.message, { 'Retry-After': String(error.retryAfterSeconds) });
  return undefined;
}

function send(reply: FastifyReply, error: HttpError) {
  return reply
    .code(error.statusCode)
    .headers(error.headers)
    .send({ detail: error.detail, ...error.fields });
}

interface AjvIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

const PART: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

const TYPE_NAMES: Record<string, [string, string]> = {
  integer: ['int_parsing', 'Input should be a valid integer'],
  number: ['float_parsing', 'Input should be a valid number'],
  string: ['string_type', 'Input should be a valid string'],
  boolean: ['bool_parsing', 'Input should be a valid boolean'],
  object: ['model_type', 'Input should be a valid object'],
  array: ['list_type', 'Input should be a valid list'],
  null: ['none_required', 'Input should be null'],
};

function pathOf(instancePath: string): (string | number)[] {
  if (instancePath === '') return [];
  return instancePath
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

function describe(issue: AjvIssue): { msg: string; type: string } {
  const p = issue.params;
  switch (issue.keyword) {
    case 'required':
      return { msg: 'Field required', type: 'missing' };
    case 'type': {
      const wanted = String(p.type).split(',')[0];
      const [type, msg] = TYPE_NAMES[wanted] ?? ['type_error', `Input should be of type ${p.type}`];
      return { msg, type };
    }
    case 'enum': {
      const values = (p.allowedValues as unknown[]).map((v) => `'${v}'`);
      const list = values.length > 1 ? `${values.slice(0, -1).join(', ')} or ${values.at(-1)}` : values[0];
      return { msg: `Input should be ${list}`, type: 'enum' };
    }
    case 'minimum':
      return { msg: `Input should be greater than or equal to ${p.limit}`, type: 'greater_than_equal' };
    case 'maximum':
      return { msg: `Input should be less than or equal to ${p.limit}`, type: 'less_than_equal' };
    case 'exclusiveMinimum':
      return { msg: `Input should be greater than ${p.limit}`, type: 'greater_than' };
    case 'exclusiveMaximum':
      return { msg: `Input should be less than ${p.limit}`, type: 'less_than' };
    case 'minLength':
      return { msg: `String should have at least ${p.limit} character${p.limit === 1 ? '' : 's'}`, type: 'string_too_short' };
    case 'maxLength':
      return { msg: `String should have at most ${p.limit} characters`, type: 'string_too_long' };
    case 'minItems':
      return { msg: `List should have at least ${p.limit} item${p.limit === 1 ? '' : 's'}`, type: 'too_short' };
    case 'maxItems':
      return { msg: `List should have at most ${p.limit} items`, type: 'too_long' };
    case 'format':
      return p.format === 'date-time'
        ? { msg: 'Input should be a valid datetime (ISO 8601) within the years 1 to 9999', type: 'datetime_parsing' }
        : { msg: `Input should match format ${p.format}`, type: `${p.format}_parsing` };
    case 'finite':
      return { msg: 'Input should be a finite number', type: 'finite_number' };
    case 'noNul':
      return { msg: 'String should not contain the NUL character (\\u0000)', type: 'string_nul' };
    case 'pattern':
      return { msg: `String should match pattern '${p.pattern}'`, type: 'string_pattern_mismatch' };
    default:
      return { msg: issue.message ?? 'Invalid value', type: issue.keyword };
  }
}

/** Ajv's report → FastAPI's `detail` list, one entry per problem, `loc` naming where it is. */
export function validationIssues(errors: AjvIssue[], context: string): ValidationIssue[] {
  const part = PART[context] ?? context;
  // A union reports each branch's errors and then "anyOf": the branch errors say more. A branch
  // that failed on the root's type (an object expected, an array given) says nothing useful
  // when another branch got further into the body.
  const deeper = errors.some((e) => e.instancePath !== '');
  // A nullable field's null branch always fails beside the value's own branch ("should be
  // null"); that says nothing when the value's branch already says what is wrong with it.
  const isNullBranch = (e: AjvIssue) => e.keyword === 'type' && e.params.type === 'null';
  const saidElsewhere = (e: AjvIssue) =>
    errors.some((o) => o !== e && o.instancePath === e.instancePath && o.keyword !== 'anyOf' && o.keyword !== 'oneOf' && !isNullBranch(o));
  const specific = errors.filter(
    (e) =>
      e.keyword !== 'anyOf' &&
      e.keyword !== 'oneOf' &&
      !(deeper && e.keyword === 'type' && e.instancePath === '') &&
      !(isNullBranch(e) && saidElsewhere(e)),
  );
  const issues = (specific.length > 0 ? specific : errors).map((issue) => {
    const loc: (string | number)[] = [part, ...pathOf(issue.instancePath)];
    if (issue.keyword === 'required') loc.push(String(issue.params.missingProperty));
    return { loc, ...describe(issue) };
  });
  const seen = new Set<string>();
  return issues.filter((i) => {
    const key = JSON.stringify(i);
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

const FASTIFY_CODES: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'Unsupported content type'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'Content-Length does not match the body'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'Request body is too large'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'Body cannot be empty when the content type is application/json'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'Malformed JSON body'],
};

/** How a full disk is told apart, and which disk the store's own writes need (see `diskFullDetail`). */
export interface DiskFull {
  is(error: unknown): boolean;
  /** The disk the store writes to, as the answer names it ("the disk holding /var/lib/sensorhub/store.db"). */
  storeDisk: string;
}

/**
 * The 507's detail: the write was not made, which disk to free, and that reads go on. A file the
 * service writes beside the store (a timelapse's) names its own path; the store's errors name none.
 */
export function diskFullDetail(error: unknown, storeDisk: string): string {
  const path = (error as { path?: unknown } | undefined)?.path;
  const disk = typeof path === 'string' ? `the disk holding ${path}` : storeDisk;
  return `Cannot write: disk full. Free space on ${disk}; reads still work, and writes succeed again once there is space.`;
}

/** Every error leaves as `{"detail": …}`; a 500 never carries SQL or a stack trace. */
export function registerErrorHandling(
  app: FastifyInstance,
  isStoreUnavailable: (error: unknown) => boolean,
  isMissingReference: (error: unknown) => boolean = () => false,
  diskFull?: DiskFull,
): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) return send(reply, error);
    const refused = refusal(error);
    if (refused) return send(reply, refused);
    if (error.validation) {
      return reply.code(422).send({ detail: validationIssues(error.validation as AjvIssue[], error.validationContext ?? 'body') });
    }
    const known = error.code ? FASTIFY_CODES[error.code] : undefined;
    if (known) {
      const [status, message] = known;
      const detail = status === 400 && error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ? `${message}: ${error.message}` : message;
      return reply.code(status).send({ detail });
    }
    if (error instanceof SyntaxError && (error as FastifyError).statusCode === 400) {
      return reply.code(400).send({ detail: `Malformed JSON body: ${error.message}` });
    }
    // Before the store's unavailability: a full disk is not cured by waiting, only by freeing space.
    if (diskFull?.is(error)) {
      request.log.warn({ err: error }, 'write refused: disk full');
      return reply.code(507).send({ detail: diskFullDetail(error, diskFull.storeDisk) });
    }
    if (isStoreUnavailable(error)) {
      request.log.warn({ err: error }, 'store unavailable');
      return reply.code(503).header('Retry-After', '5').send({ detail: 'Database unavailable, try again shortly.' });
    }
    // A concurrent delete took away what the request refers to between its check and its write.
    if (isMissingReference(error)) return reply.code(404).send({ detail: 'A resource the request refers to does not exist' });
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return reply.code(status).send({ detail: error.message });
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ detail: 'Internal Server Error' });
  });

  app.setNotFoundHandler((_request, reply) => {
    reply.code(404).send({ detail: 'Not Found' });
  });
}

/** What Fastify's router reports about a URL before any route runs, as the client should read it. */
const URL_PROBLEMS: Record<string, [number, string]> = {
  FST_ERR_BAD_URL: [400, 'Malformed URL (invalid percent-encoding)'],
  FST_ERR_MAX_PARAM_LENGTH: [414, 'A path parameter is too long'],
  FST_ERR_ASYNC_CONSTRAINT: [500, 'Internal Server Error'],
};

/**
 * Fastify's `frameworkErrors`: the errors its router raises itself (a bad %-encoding, an over-long
 * path parameter) answer `{"detail": …}` like every other error, not Fastify's own body.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const [status, detail] = URL_PROBLEMS[error.code] ?? [error.statusCode ?? 400, error.message];
  reply.code(status).send({ detail });
}

/** Node's own refusals of a request it could not parse, before Fastify sees it. */
const CLIENT_ERRORS: Record<string, [number, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request timed out'],
  HPE_HEADER_OVERFLOW: [431, 'Request header fields too large (the URL included)'],
  HPE_URI_TOO_LONG: [414, 'URI too long'],
};

/**
 * Fastify's `clientErrorHandler`: a request line or headers Node cannot parse (a space in the
 * path, headers or a URL over the size limit) get a `{"detail": …}` body too, then the
 * connection is closed, as Node does.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, detail] = (error.code && CLIENT_ERRORS[error.code]) || [400, 'Malformed HTTP request'];
  if (!socket.writable) {
    socket.destroy(error);
    return;
  }
  const body = JSON.stringify({ detail });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

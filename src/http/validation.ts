import { Ajv, type ValidateFunction } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';
import { isDateTime } from '../domain/date-time.js';
import { compileCoercion, type Schema, type Source } from './coerce.js';
import { addInputLimitKeywords, withInputLimits } from './input-limits.js';

function createAjv(): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    coerceTypes: false,
    useDefaults: true,
    // "Unknown body fields are ignored": they are dropped before the handler sees the body.
    removeAdditional: 'all',
    strict: false,
    addUsedSchema: false,
  });
  addInputLimitKeywords(ajv);
  // The only formats the schemas use (so ajv-formats and its other formats are not loaded).
  ajv.addFormat('date-time', { type: 'string', validate: isDateTime });
  ajv.addFormat('duration', { type: 'string', validate: () => true });
  ajv.addFormat('binary', true);
  return ajv;
}

/** What a schema compiles to, for one part of the request. */
interface Compiled {
  check: ValidateFunction;
  coerce: ReturnType<typeof compileCoercion>;
}

/**
 * Compiled schemas are kept per schema object (the routes' schemas are constants), for every app
 * the process builds: compiling them is most of the cost of building one.
 */
let shared: Ajv | undefined;
const compiledBySchema = new WeakMap<object, Map<string, Compiled>>();

function compiled(schema: object, httpPart: string | undefined): Compiled {
  const source: Source = httpPart === 'params' ? 'path' : httpPart === 'querystring' ? 'query' : 'json';
  let byPart = compiledBySchema.get(schema);
  if (!byPart) compiledBySchema.set(schema, (byPart = new Map()));
  let entry = byPart.get(source);
  if (!entry) {
    shared ??= createAjv();
    entry = { check: shared.compile(withInputLimits(schema)), coerce: compileCoercion(schema as Schema, source) };
    byPart.set(source, entry);
  }
  return entry;
}

/**
 * Fastify's validator compiler: numeric strings become numbers where the schema asks for one
 * (see coerce.ts), then Ajv checks the whole part and reports every problem at once.
 */
export function validatorCompiler(): FastifySchemaCompiler<unknown> {
  return ({ schema, httpPart }) => {
    // Compiled on a route's first request, not at start: most routes of a small installation are
    // never called, and their compiled checks would be memory kept for nothing.
    let parts: Compiled | undefined;
    const validate = (data: unknown) => {
      const { check, coerce } = (parts ??= compiled(schema as object, httpPart));
      const value = coerce ? coerce(data) : data;
      const ok = check(value);
      validate.errors = check.errors;
      return ok ? { value } : false;
    };
    validate.errors = null as ValidateFunction['errors'];
    // Fastify's validator type promises a boolean or a `{ value }` per call and typed errors;
    // this function is both, in the shape Fastify reads at run time.
    return validate as never;
  };
}

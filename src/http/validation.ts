import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
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
  addFormats.default(ajv);
  addInputLimitKeywords(ajv);
  ajv.addFormat('date-time', { type: 'string', validate: isDateTime });
  ajv.addFormat('duration', { type: 'string', validate: () => true });
  return ajv;
}

/**
 * Fastify's validator compiler: numeric strings become numbers where the schema asks for one
 * (see coerce.ts), then Ajv checks the whole part and reports every problem at once.
 */
export function validatorCompiler(): FastifySchemaCompiler<unknown> {
  const ajv = createAjv();
  return ({ schema, httpPart }) => {
    const check: ValidateFunction = ajv.compile(withInputLimits(schema as object));
    const source: Source = httpPart === 'params' ? 'path' : httpPart === 'querystring' ? 'query' : 'json';
    const coerce = compileCoercion(schema as Schema, source);
    const validate = (data: unknown) => {
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

import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { isWithinYears } from '../domain/instants.js';
import { compileCoercion, type Schema, type Source } from './coerce.js';
import { addInputLimitKeywords, withInputLimits } from './input-limits.js';

/** ISO 8601 date-time; the offset may be left out (taken as UTC). */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}(?::?\d{2})?)?$/;

export function isDateTime(text: string): boolean {
  return DATE_TIME.test(text) && Number.isFinite(parseDateTime(text));
}

/** A request date-time → epoch ms (NaN when invalid, or outside the years 1 to 9999 once in UTC). */
export function parseDateTime(text: string): number {
  // The format is checked first so that no pattern below runs on long text.
  if (!DATE_TIME.test(text)) return NaN;
  let iso = text.trim().replace(' ', 'T');
  if (!/(?:[Zz]|[+-]\d{2}(?::?\d{2})?)$/.test(iso)) iso += 'Z';
  iso = iso.replace(/([+-]\d{2})$/, '$1:00').replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  const [date] = iso.split('T');
  const [y, m, d] = date.split('-').map(Number);
  const ms = Date.parse(iso);
  // Date.parse rolls 2026-02-30 over to March; a date that does not exist is invalid.
  // (setUTCFullYear, unlike Date.UTC, takes years below 100 as they are.)
  const check = new Date(0);
  check.setUTCFullYear(y, m - 1, d);
  if (check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d) return NaN;
  return isWithinYears(ms) ? ms : NaN;
}

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
    return validate as never;
  };
}

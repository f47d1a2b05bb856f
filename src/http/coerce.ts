import { isNumericText } from '../domain/numeric-text.js';

/**
 * Converts numeric strings where a schema asks for a number, before validation: the real sensor
 * scripts send ids taken from argv as strings (`"sensor_id": "2"`). Only strings that are entirely
 * a number are converted; anything else is left for the validator to reject, so `null`, booleans
 * and `"abc"` still fail where a number is required (unlike Ajv's own coercion, which turns
 * `null` into 0).
 *
 * In the query string and the path every value arrives as text, so booleans are converted there
 * too, and a single value becomes a one-element array where the schema wants an array. A path id
 * is ASCII digits and nothing else (no sign, no blank, no line break).
 */
export type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
};

/** Where the data came from: a JSON body, the query string, or the path. */
export type Source = 'json' | 'query' | 'path';

/** The number a numeric string stands for; a string that overflows ("1e999") stays a string, so it is refused. */
function finite(text: string): number | string {
  const value = Number(text);
  return Number.isFinite(value) && Number.isSafeInteger(Math.trunc(value)) ? value : text;
}

function typeOf(schema: Schema): string | undefined {
  return Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Converts one value; null stands for "nothing to convert anywhere below this schema". */
type Coercer = ((data: unknown) => unknown) | null;

const toInteger = (data: unknown) => (typeof data === 'string' && isNumericText(data, 'integer') ? finite(data) : data);
const toPathInteger = (data: unknown) => (typeof data === 'string' && isNumericText(data, 'digits') ? finite(data) : data);
const toNumber = (data: unknown) => (typeof data === 'string' && isNumericText(data, 'number') ? finite(data) : data);
const toBoolean = (data: unknown) => (data === 'true' ? true : data === 'false' ? false : data);

/**
 * The conversion for one schema, worked out once: a validator runs it on every request (a batch
 * of measurements runs it once per item), so the schema is not walked again each time.
 */
export function compileCoercion(schema: Schema, source: Source = 'json'): Coercer {
  const fromText = source !== 'json';
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) {
    const byType = (wanted: string | undefined) =>
      branches.find((b) => typeOf(b) === wanted) ??
      branches.find((b) => typeOf(b) !== undefined && typeOf(b) !== 'array' && typeOf(b) !== 'object');
    const forArray = byType('array');
    const forObject = byType('object');
    const forOther = byType(undefined);
    const [arrays, objects, others] = [forArray, forObject, forOther].map((b) => (b ? compileCoercion(b, source) : null));
    if (!arrays && !objects && !others) return null;
    return (data) => {
      const coerce = Array.isArray(data) ? arrays : isPlainObject(data) ? objects : others;
      return coerce ? coerce(data) : data;
    };
  }

  switch (typeOf(schema)) {
    case 'object': {
      const fields = Object.entries(schema.properties ?? {})
        .map(([key, property]) => [key, compileCoercion(property, source)] as const)
        .filter((field): field is readonly [string, NonNullable<Coercer>] => field[1] !== null);
      if (fields.length === 0) return null;
      return (data) => {
        if (isPlainObject(data)) {
          for (const [key, coerce] of fields) if (Object.hasOwn(data, key)) data[key] = coerce(data[key]);
        }
        return data;
      };
    }
    case 'array': {
      const item = schema.items ? compileCoercion(schema.items, source) : null;
      if (!item && !fromText) return null;
      return (data) => {
        const list = fromText && data !== undefined && !Array.isArray(data) ? [data] : data;
        if (item && Array.isArray(list)) for (let i = 0; i < list.length; i++) list[i] = item(list[i]);
        return list;
      };
    }
    case 'integer':
      return source === 'path' ? toPathInteger : toInteger;
    case 'number':
      return toNumber;
    case 'boolean':
      return fromText ? toBoolean : null;
    default:
      return null;
  }
}

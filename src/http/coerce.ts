/**
 * Converts numeric strings where a schema asks for a number, before validation: the real sensor
 * scripts send ids taken from argv as strings (`"sensor_id": "2"`). Only strings that are entirely
 * a number are converted; anything else is left for the validator to reject, so `null`, booleans
 * and `"abc"` still fail where a number is required (unlike Ajv's own coercion, which turns
 * `null` into 0).
 *
 * In the query string and the path every value arrives as text, so booleans are converted there
 * too, and a single value becomes a one-element array where the schema wants an array.
 */
type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
};

const INTEGER = /^\s*[-+]?\d+\s*$/;
const NUMBER = /^\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*$/;

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

export function coerceNumericStrings(schema: Schema, data: unknown, fromText = false): unknown {
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) {
    const wanted = Array.isArray(data) ? 'array' : isPlainObject(data) ? 'object' : undefined;
    const branch = branches.find((b) => typeOf(b) === wanted) ?? branches.find((b) => typeOf(b) !== undefined && typeOf(b) !== 'array' && typeOf(b) !== 'object');
    return branch ? coerceNumericStrings(branch, data, fromText) : data;
  }

  switch (typeOf(schema)) {
    case 'object':
      if (isPlainObject(data) && schema.properties) {
        for (const [key, property] of Object.entries(schema.properties)) {
          if (Object.hasOwn(data, key)) data[key] = coerceNumericStrings(property, data[key], fromText);
        }
      }
      return data;
    case 'array': {
      const list = fromText && data !== undefined && !Array.isArray(data) ? [data] : data;
      if (Array.isArray(list) && schema.items) {
        for (let i = 0; i < list.length; i++) list[i] = coerceNumericStrings(schema.items, list[i], fromText);
      }
      return list;
    }
    case 'integer':
      return typeof data === 'string' && INTEGER.test(data) ? finite(data) : data;
    case 'number':
      return typeof data === 'string' && NUMBER.test(data) ? finite(data) : data;
    case 'boolean':
      if (fromText && data === 'true') return true;
      if (fromText && data === 'false') return false;
      return data;
    default:
      return data;
  }
}

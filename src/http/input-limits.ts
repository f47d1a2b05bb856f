import type { Ajv } from 'ajv';

/**
 * Two rules that hold for every field of every request schema, added to each schema before it is
 * compiled so that no route can forget them:
 *
 * - `finite`: a number is finite. JSON has no Infinity, but a number too large for a double
 *   (`1e400`) parses as one, and the stores would keep it (or fail on it).
 * - `noNul`: a string holds no NUL character. PostgreSQL text cannot hold one, so the two stores
 *   would disagree (and a SQLite store could not be copied to PostgreSQL).
 */
export function addInputLimitKeywords(ajv: Ajv): void {
  ajv.addKeyword({
    keyword: 'finite',
    type: 'number',
    schemaType: 'boolean',
    errors: false,
    validate: (wanted: boolean, data: number) => !wanted || Number.isFinite(data),
  });
  ajv.addKeyword({
    keyword: 'noNul',
    type: 'string',
    schemaType: 'boolean',
    errors: false,
    validate: (wanted: boolean, data: string) => !wanted || !data.includes('\u0000'),
  });
}

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

function hasType(node: Node, ...types: string[]): boolean {
  const type = node.type;
  return Array.isArray(type) ? type.some((t) => types.includes(t as string)) : types.includes(type as string);
}

/** A copy of a schema with `finite` on every number and `noNul` on every string, at any depth. */
export function withInputLimits<T>(schema: T): T {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (!isNode(value)) return value;
    const out: Node = {};
    for (const [key, child] of Object.entries(value)) {
      // Examples, defaults and enums are data, not schemas.
      out[key] = key === 'examples' || key === 'default' || key === 'enum' || key === 'const' ? child : walk(child);
    }
    if (hasType(value, 'number', 'integer')) out.finite = true;
    if (hasType(value, 'string')) out.noNul = true;
    return out;
  };
  return walk(schema) as T;
}

import { type TSchema, Type } from '@sinclair/typebox';

export const MAX_ID = 2 ** 31 - 1;

/** Every identifier: an integer in 0 .. 2^31-1 (numeric strings are converted before validation). */
export const Id = (description?: string) => Type.Integer({ minimum: 0, maximum: MAX_ID, description });

/** A string enumeration as a plain JSON-Schema `enum`, which validates and documents more cleanly than a union. */
export function StringEnum<const T extends readonly string[]>(values: T, description?: string) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], description });
}

/** A date-time in a request: ISO 8601; without an offset it is taken as UTC; years 1 to 9999 once in UTC. */
export const DateTimeInput = (description?: string) =>
  Type.String({
    format: 'date-time',
    description: [description, 'Within the years 1 to 9999 (UTC).'].filter(Boolean).join(' '),
    examples: ['2026-11-22T09:30:00.123Z'],
  });

/** A date-time in a response: ISO 8601 in UTC with a Z suffix and milliseconds. */
export const DateTimeOutput = (description?: string) =>
  Type.String({ format: 'date-time', description, examples: ['2026-11-22T09:30:00.123Z'] });

export const ErrorBody = Type.Object(
  { detail: Type.String({ description: 'What went wrong, for a person to read.' }) },
  { $id: 'ErrorBody', title: 'Error' },
);

export const ValidationErrorBody = Type.Object(
  {
    detail: Type.Array(
      Type.Object({
        loc: Type.Array(Type.Union([Type.String(), Type.Integer()]), {
          description: 'Where the problem is: "body", "query" or "path", then the field path.',
        }),
        msg: Type.String(),
        type: Type.String(),
      }),
    ),
  },
  { $id: 'ValidationErrorBody', title: 'HTTPValidationError' },
);

/** The 409 of a delete refused while something is below: the sentence of every error, and the counts as data. */
export const RemovalRefusedBody = Type.Object(
  {
    detail: Type.String({ description: 'What is below and how to delete it anyway, for a person to read.' }),
    dependents: Type.Object(
      {
        sensors: Type.Integer({ minimum: 0, description: 'Sensors of the prototype; 0 when a sensor is deleted.' }),
        actuators: Type.Integer({ minimum: 0, description: 'Actuators driven by those sensors (or by the sensor).' }),
        measurements: Type.Integer({ minimum: 0, description: 'Measurements of those sensors (or of the sensor).' }),
        notes: Type.Integer({ minimum: 0, description: 'Notes of the prototype’s journal; 0 when a sensor is deleted.' }),
      },
      { description: 'What is still below, counted: what ?cascade=true would delete with it.' },
    ),
  },
  { $id: 'RemovalRefusedBody', title: 'RemovalRefused' },
);

export const Message = Type.Object({ message: Type.String() });

/** The error responses most routes can give, for the OpenAPI document. */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  for (const status of statuses) out[status] = status === 422 ? Type.Ref(ValidationErrorBody) : Type.Ref(ErrorBody);
  return out;
}

/** `?cascade=true` on the deletes of what can have something below it. */
export const CascadeQuery = Type.Object({
  cascade: Type.Boolean({
    default: false,
    description:
      'Also delete everything below (sensors, actuators, measurements; a prototype’s notes), in the same transaction. Without it, 409 while anything is below.',
  }),
});

/** The 204 of a delete, for the OpenAPI document. */
export const Deleted = { description: 'Deleted. No body.', type: 'null' } as const;

/**
 * The same schema without its upper bounds, for what the service answers: a store written before
 * a bound was set may hold more, and a reply must describe it rather than fail to serialise.
 */
export function withoutMaximum<T extends TSchema>(schema: T): T {
  const { maximum: _max, exclusiveMaximum: _exclusive, ...rest } = schema as TSchema & Record<string, unknown>;
  const copy: Record<string | symbol, unknown> = { ...rest };
  if (Array.isArray(copy.anyOf)) copy.anyOf = (copy.anyOf as TSchema[]).map(withoutMaximum);
  if (copy.items && typeof copy.items === 'object') copy.items = withoutMaximum(copy.items as TSchema);
  return copy as T;
}

/** Each field of an object's properties without its upper bounds. */
export const withoutMaxima = <T extends Record<string, TSchema>>(fields: T): T =>
  Object.fromEntries(Object.entries(fields).map(([key, schema]) => [key, withoutMaximum(schema)])) as T;

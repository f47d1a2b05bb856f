import type { ErrorObject } from 'ajv';
import { validationIssues } from '../http/errors.js';
import { validatorCompiler } from '../http/validation.js';
import { type MeasurementBase, MeasurementBody } from '../domain/measurement.js';
import type { ValidationIssue } from '../core/errors.js';

/** One line for a person: `payload.0.value: Input should be a valid number; …`. */
export function describeIssues(issues: readonly ValidationIssue[]): string {
  return issues
    .map(({ loc, msg }) => {
      const where = loc[0] === 'body' ? ['payload', ...loc.slice(1)] : loc;
      return `${where.join('.')}: ${msg}`;
    })
    .join('; ');
}

export type CheckedBody = { ok: true; items: MeasurementBase[]; batch: boolean } | { ok: false; reason: string };

/**
 * The schema check of `POST /measurements` (the same compiler, so the same coercions, limits and
 * messages), for a body built from an MQTT payload.
 */
export function measurementBodyCheck(): (body: unknown, batch: boolean) => CheckedBody {
  const validate = validatorCompiler()({ schema: MeasurementBody, httpPart: 'body', method: 'POST', url: '/measurements' }) as unknown as ((
    data: unknown,
  ) => { value: unknown } | false) & { errors?: ErrorObject[] | null };
  return (body, batch) => {
    const result = validate(body);
    if (!result) return { ok: false, reason: describeIssues(validationIssues(validate.errors ?? [], 'body')) };
    const value = result.value as MeasurementBase | MeasurementBase[];
    return { ok: true, items: batch ? (value as MeasurementBase[]) : [value as MeasurementBase], batch };
  };
}

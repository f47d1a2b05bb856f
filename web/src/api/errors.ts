import type { ValidationIssue } from './types';

/** A non-2xx answer, with the service's `detail` kept for display and the whole body for the data some carry beside it. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string | ValidationIssue[],
    readonly body: Record<string, unknown> = {},
  ) {
    super(typeof detail === 'string' ? detail : detail.map((issue) => issue.msg).join('; '));
  }

  get issues(): ValidationIssue[] {
    return typeof this.detail === 'string' ? [] : this.detail;
  }
}

/** Messages keyed by the form field they concern; `_form` holds what names no single field. */
export type FieldErrors = Record<string, string>;

/**
 * `loc` is `["body", <index in a bulk body>?, field, ...]`. The field is its first name after the
 * location; an order violation of the thresholds names no field, so it goes to `thresholds`.
 */
export function fieldOf(issue: ValidationIssue): string {
  if (issue.type === 'thresholds_order') return 'thresholds';
  const names = issue.loc.slice(1).filter((part): part is string => typeof part === 'string');
  return names[0] ?? '_form';
}

export function fieldErrors(error: unknown): FieldErrors {
  if (!(error instanceof ApiError)) return { _form: error instanceof Error ? error.message : String(error) };
  if (error.issues.length === 0) return { _form: error.message };
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const field = fieldOf(issue);
    out[field] = out[field] ? `${out[field]}; ${issue.msg}` : issue.msg;
  }
  return out;
}

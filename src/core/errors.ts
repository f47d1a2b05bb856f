/**
 * Why a service refused a request, in terms of the request rather than of HTTP: the HTTP layer
 * maps each to its status (http/errors.ts), another entry point (MQTT) may report it its own way.
 * A service throws one of these before anything is written, or from inside the transaction
 * that it rolls back.
 */

/** One problem with the input: where it is (`loc`, as in the contract's 422 answers), what, which rule. */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** A refusal that says no more than its message, told apart by its class. */
function refusal(name: string) {
  return class extends Error {
    override name = name;
  };
}

/** Something the request names does not exist. */
export const NotFound = refusal('NotFound');
/** The request would duplicate what exists (an id or a name already taken). */
export const Conflict = refusal('Conflict');
/** What is still below a sensor or a prototype, counted (`sensors` and `notes` are 0 below a sensor). */
export interface DependentCounts {
  sensors: number;
  actuators: number;
  measurements: number;
  notes: number;
}

/** A delete refused while something is below what it names: a Conflict that carries the counts. */
export class HasDependents extends Conflict {
  override name = 'HasDependents';
  constructor(
    message: string,
    readonly dependents: DependentCounts,
  ) {
    super(message);
  }
}

/** No valid credentials: a missing, forged, expired or revoked token, or a wrong password. */
export const Unauthenticated = refusal('Unauthenticated');
/** Keeping what the request asks for would pass a storage bound the operator set. */
export const InsufficientStorage = refusal('InsufficientStorage');
/** Valid credentials without the permission the request needs. */
export const Forbidden = refusal('Forbidden');

/** The input breaks a rule the schema cannot express (thresholds order, window bounds…). */
export class InvalidInput extends Error {
  override name = 'InvalidInput';
  readonly issues: ValidationIssue[];
  constructor(...issues: ValidationIssue[]) {
    super('Invalid input');
    this.issues = issues;
  }
}

/** Too many failed attempts: try again in `retryAfterSeconds`. */
export class TooManyAttempts extends Error {
  override name = 'TooManyAttempts';
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

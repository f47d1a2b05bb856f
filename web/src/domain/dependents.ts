import { describeDependents } from '../../../src/domain/dependents.js';
import type { ApiError } from '../api/errors';
import type { RemovalRefused } from '../api/types';

/**
 * What a refused delete says is below the sensor ("1 actuator and 288 measurements"), from the
 * counts its 409 carries (`dependents`), in the service's own words; its detail when it carries
 * none (a 409 from something else on the way).
 */
export function dependentsOf(refused: ApiError): string {
  const { dependents } = refused.body as Partial<RemovalRefused>;
  return dependents ? describeDependents(dependents) : refused.message;
}

import { conflict, type HttpError } from '../http/errors.js';
import { type Dependents, describeDependents } from '../store/removals.js';

/** The 409 of a delete refused because something is still below what it names. */
export function refusedRemoval(what: string, dependents: Dependents): HttpError {
  return conflict(`${what} still has ${describeDependents(dependents)}; delete them first, or add ?cascade=true to delete them with it`);
}

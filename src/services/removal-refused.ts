import { type Dependents, describeDependents } from '../store/repositories/removals.js';
import { Conflict } from './errors.js';

/** A delete refused because something is still below what it names. */
export function removalRefused(what: string, dependents: Dependents): InstanceType<typeof Conflict> {
  return new Conflict(
    `${what} still has ${describeDependents(dependents)}; delete them first, or add ?cascade=true to delete them with it`,
  );
}

import { type Dependents, describeDependents } from '../domain/dependents.js';
import { HasDependents } from './errors.js';

/** A delete refused because something is still below what it names: the counts in a sentence and as data. */
export function removalRefused(what: string, dependents: Dependents): HasDependents {
  const { sensors = 0, actuators, measurements, notes = 0 } = dependents;
  return new HasDependents(
    `${what} still has ${describeDependents(dependents)}; delete them first, or add ?cascade=true to delete them with it`,
    { sensors, actuators, measurements, notes },
  );
}

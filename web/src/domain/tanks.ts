import type { Prototype } from '../api/types';

/** The id a new tank gets: the smallest one not taken, so a grower's tanks stay 0, 1, 2… */
export function smallestFreeId(prototypes: readonly Pick<Prototype, 'prototype_id'>[]): number {
  const taken = new Set(prototypes.map((p) => p.prototype_id));
  let id = 0;
  while (taken.has(id)) id++;
  return id;
}

/** The service's limits on a tank name (1..200 characters), said before asking it. */
export function tankNameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed === '') return 'Give the tank a name.';
  if ([...trimmed].length > 200) return 'At most 200 characters.';
  return null;
}

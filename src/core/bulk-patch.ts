import { NotFound } from './errors.js';

/** How one kind of entity is patched in bulk; every step runs inside the caller's transaction. */
export interface PatchPlan<T extends object, P> {
  /** The id a patch names. */
  idOf(patch: P): number;
  /** The fields a patch may change. */
  fields: readonly (keyof T & keyof P)[];
  /** What the patches name, from the repository of the transaction. */
  rows: {
    lock(ids: readonly number[]): Promise<void>;
    get(id: number): Promise<T | undefined>;
    update(row: T): Promise<T>;
  };
  notFound(id: number): string;
  /** Throws when the merged entity breaks a rule (`index`: the patch's place in the request). */
  check?(merged: T, index: number): void;
  /** Records the change, inside the transaction (the settings audit): the entity before and after. */
  audit?(before: T, after: T): Promise<void>;
  /** The entity another one refers to (a sensor's prototype, an actuator's sensor): it must exist when changed. */
  parent: {
    field: keyof T & keyof P;
    exists(id: number): Promise<boolean>;
    notFound(id: number): string;
  };
}

/** The current entity with the patch's known fields laid over it; a field left out keeps its value. */
function merge<T extends object, P>(current: T, patch: P, fields: readonly (keyof T & keyof P)[]): T {
  const merged = { ...current };
  for (const field of fields) {
    const value = patch[field];
    if (value !== undefined) merged[field] = value as T[typeof field];
  }
  return merged;
}

/**
 * Applies the patches one by one — lock every row they name (in id order, so concurrent bulk
 * updates queue instead of deadlocking), then for each: read, 404 when missing, merge, check,
 * make sure a changed reference exists, update — and returns the updated entities. Run inside a
 * transaction: the first refusal throws and nothing is written.
 */
export async function patchAll<T extends object, P>(patches: readonly P[], plan: PatchPlan<T, P>): Promise<T[]> {
  await plan.rows.lock(patches.map(plan.idOf));
  const updated: T[] = [];
  for (const [index, patch] of patches.entries()) {
    const id = plan.idOf(patch);
    const current = await plan.rows.get(id);
    if (!current) throw new NotFound(plan.notFound(id));
    const merged = merge(current, patch, plan.fields);
    plan.check?.(merged, index);
    const parentId = merged[plan.parent.field];
    if (parentId !== current[plan.parent.field] && !(await plan.parent.exists(Number(parentId)))) {
      throw new NotFound(plan.parent.notFound(Number(parentId)));
    }
    const after = await plan.rows.update(merged);
    await plan.audit?.(current, after);
    updated.push(after);
  }
  return updated;
}

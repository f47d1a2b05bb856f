/** One field of a setting changed: its value before and after. */
export interface FieldChange {
  field: string;
  from: unknown;
  to: unknown;
}

/** A value as stored in the audit: absent and null are both "none". */
const stored = (value: unknown): unknown => (value === undefined ? null : value);

/** Values equal as JSON: interlocks and other objects are compared by content. */
const same = (a: unknown, b: unknown) => JSON.stringify(stored(a)) === JSON.stringify(stored(b));

/** The fields among `fields` whose value differs between `before` and `after`, in the order of `fields`. */
export function settingsChanges<T extends object>(before: T, after: T, fields: readonly (keyof T & string)[]): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const field of fields) {
    if (!same(before[field], after[field])) changes.push({ field, from: stored(before[field]), to: stored(after[field]) });
  }
  return changes;
}

const valueText = (value: unknown): string => (value === null ? 'none' : typeof value === 'object' ? JSON.stringify(value) : String(value));

/** "condition_value 6.5 → 6.2; max_doses_per_hour none → 4": the changes in a line, for the journal. */
export function changesText(changes: readonly FieldChange[]): string {
  return changes.map((c) => `${c.field} ${valueText(c.from)} → ${valueText(c.to)}`).join('; ');
}

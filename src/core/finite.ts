/**
 * A stored number as an answer may carry it: Infinity and NaN have no JSON form, and a row an older
 * version (or a hand edit) left holding one must not make every later read fail. Not finite: null,
 * as a value that is not known.
 */
export const finiteOrNull = (value: number | null | undefined): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

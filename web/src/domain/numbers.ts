/**
 * Form text → numbers. A field that is not a number is reported next to itself and nothing is
 * sent; everything else (ranges, threshold order) the service decides and reports.
 */
export function parseNumbers<K extends string>(
  texts: Record<K, string>,
): { values: Record<K, number>; errors: Partial<Record<K, string>> } {
  const values = {} as Record<K, number>;
  const errors: Partial<Record<K, string>> = {};
  for (const key of Object.keys(texts) as K[]) {
    const text = texts[key].trim().replace(',', '.');
    const value = text === '' ? Number.NaN : Number(text);
    if (Number.isFinite(value)) values[key] = value;
    else errors[key] = 'Enter a number';
  }
  return { values, errors };
}

/**
 * Form text → numbers for fields that may be left empty: empty is null (the service's "no limit",
 * "off" or "default"), a number is itself, anything else is reported next to its field.
 */
export function parseOptionalNumbers<K extends string>(
  texts: Record<K, string>,
): { values: Record<K, number | null>; errors: Partial<Record<K, string>> } {
  const values = {} as Record<K, number | null>;
  const errors: Partial<Record<K, string>> = {};
  for (const key of Object.keys(texts) as K[]) {
    const text = texts[key].trim().replace(',', '.');
    const value = Number(text);
    if (text === '') values[key] = null;
    else if (Number.isFinite(value)) values[key] = value;
    else errors[key] = 'Enter a number, or leave it empty';
  }
  return { values, errors };
}

/** A number or null as form text: null is the empty field. */
export const optionalText = (n: number | null | undefined): string => (n === null || n === undefined ? '' : String(n));

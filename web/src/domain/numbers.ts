/**
 * Form text → numbers. A field that is not a number is reported next to itself and nothing is
 * sent; everything else (ranges, threshold order) the service decides and reports.
 */
export function parseNumbers<K extends string>(texts: Record<K, string>): { values: Record<K, number>; errors: Partial<Record<K, string>> } {
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

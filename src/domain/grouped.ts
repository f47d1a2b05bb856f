/**
 * An integer with commas between its thousands ("100,000"), as `toLocaleString('en-US')` writes
 * it, without Intl: the first Intl number format of a process pages in megabytes of ICU data,
 * which a service on a small board would keep resident for a few words of English.
 */
export function grouped(n: number): string {
  const sign = n < 0 ? '-' : '';
  return sign + String(Math.trunc(Math.abs(n))).replace(/\B(?=(\d{3})+$)/g, ',');
}

/** Date-times as the contract writes them: ISO 8601 text in requests and answers, epoch ms inside. */
import { isWithinYears } from './instants.js';

/** ISO 8601 date-time; the offset may be left out (taken as UTC). */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}(?::?\d{2})?)?$/;

export function isDateTime(text: string): boolean {
  return DATE_TIME.test(text) && Number.isFinite(parseDateTime(text));
}

/** A request date-time → epoch ms (NaN when invalid, or outside the years 1 to 9999 once in UTC). */
export function parseDateTime(text: string): number {
  // The format is checked first so that no pattern below runs on long text.
  if (!DATE_TIME.test(text)) return NaN;
  let iso = text.trim().replace(' ', 'T');
  if (!/(?:[Zz]|[+-]\d{2}(?::?\d{2})?)$/.test(iso)) iso += 'Z';
  iso = iso.replace(/([+-]\d{2})$/, '$1:00').replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  const [date] = iso.split('T');
  const [y, m, d] = date.split('-').map(Number);
  const ms = Date.parse(iso);
  // Date.parse rolls 2026-02-30 over to March; a date that does not exist is invalid.
  // (setUTCFullYear, unlike Date.UTC, takes years below 100 as they are.)
  const check = new Date(0);
  check.setUTCFullYear(y, m - 1, d);
  if (check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d) return NaN;
  return isWithinYears(ms) ? ms : NaN;
}

/** ISO text of a timestamp; consecutive rows often share one (a batch stamped at receipt), so the last is kept. */
let lastMs = Number.NaN;
let lastIso = '';
export function isoOf(ms: number): string {
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}

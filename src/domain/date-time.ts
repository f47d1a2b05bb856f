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

const DAY_MS = 86_400_000;
/** The instants whose ISO text has a four-digit year (0000-01-01 to 9999-12-31): the text the fast path writes. */
const FOUR_DIGIT_YEARS = [-62_167_219_200_000, 253_402_300_800_000] as const;
/** "00".."99" and "000".."999", made once: the seconds and milliseconds of a row cost no new text. */
const TWO = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, '0'));
const THREE = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, '0'));
const MINUTE_MS = 60_000;

/**
 * ISO text of a timestamp. Consecutive rows often share one (a batch stamped at receipt), so the
 * last is kept; and long answers (a year of hourly buckets, a day of readings) run through the
 * same days and minutes, so the text up to the minute is kept too and only the seconds and
 * milliseconds are written — several times cheaper than a Date per row.
 */
let lastMs = Number.NaN;
let lastIso = '';
let lastDay = Number.NaN;
let dayText = '';
let lastMinute = Number.NaN;
let minuteText = '';
export function isoOf(ms: number): string {
  if (ms === lastMs) return lastIso;
  lastMs = ms;
  if (!(ms >= FOUR_DIGIT_YEARS[0] && ms < FOUR_DIGIT_YEARS[1]) || !Number.isInteger(ms)) {
    lastIso = new Date(ms).toISOString();
    return lastIso;
  }
  const minute = Math.floor(ms / MINUTE_MS);
  if (minute !== lastMinute) {
    lastMinute = minute;
    const day = Math.floor(ms / DAY_MS);
    if (day !== lastDay) {
      lastDay = day;
      dayText = new Date(day * DAY_MS).toISOString().slice(0, 11);
    }
    const ofDay = minute - day * (DAY_MS / MINUTE_MS);
    minuteText = `${dayText}${TWO[Math.floor(ofDay / 60)]}:${TWO[ofDay % 60]}:`;
  }
  const rest = ms - minute * MINUTE_MS;
  const seconds = Math.floor(rest / 1000);
  lastIso = minuteText + TWO[seconds] + '.' + THREE[rest - seconds * 1000] + 'Z';
  return lastIso;
}

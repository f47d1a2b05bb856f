/**
 * Parses the duration forms the clients send, returning milliseconds, or undefined when the text
 * is not a duration or is negative.
 *
 * Accepted:
 * - ISO 8601: `P7D`, `PT2H30M`, `P1DT12H`, `P2W`, `PT0.5S` (a year counts 365 days, a month 30);
 * - Python's timedelta text and pydantic's forms: `07d,00:00:00`, `1 day, 02:00:00`,
 *   `2 days 02:00:00`, `02:00:00`, `02:00`, `1d`;
 * - a plain number of seconds: `3600`, `0.5`.
 */
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const NUM = String.raw`(\d+(?:[.,]\d+)?)`;
const ISO = new RegExp(String.raw`^P(?:${NUM}Y)?(?:${NUM}M)?(?:${NUM}W)?(?:${NUM}D)?(?:T(?:${NUM}H)?(?:${NUM}M)?(?:${NUM}S)?)?$`, 'i');
const PYTHON = /^(?:(\d+(?:\.\d+)?)\s*(?:d|days?)\s*,?\s*)?(?:(\d{1,2}):(\d{2})(?::(\d{2}(?:\.\d+)?))?)?$/i;
const SECONDS = /^\d+(?:\.\d+)?$/;

function num(part: string | undefined): number {
  return part === undefined ? 0 : Number(part.replace(',', '.'));
}

function parseIso(text: string): number | undefined {
  const m = ISO.exec(text);
  if (!m || text.toUpperCase().endsWith('T')) return undefined;
  if (m.slice(1).every((part) => part === undefined)) return undefined;
  const [, y, mo, w, d, h, mi, s] = m;
  return num(y) * 365 * DAY + num(mo) * 30 * DAY + num(w) * 7 * DAY + num(d) * DAY + num(h) * HOUR + num(mi) * MINUTE + num(s) * SECOND;
}

function parsePython(text: string): number | undefined {
  const m = PYTHON.exec(text);
  if (!m || (m[1] === undefined && m[2] === undefined)) return undefined;
  const [, d, h, mi, s] = m;
  if (mi !== undefined && Number(mi) >= 60) return undefined;
  if (s !== undefined && Number(s) >= 60) return undefined;
  return num(d) * DAY + num(h) * HOUR + num(mi) * MINUTE + num(s) * SECOND;
}

/**
 * True for an ISO 8601 duration with years or months (`P1Y`, `P1M`, `P1Y2M3D`; not `PT1M`, which
 * is minutes): units of no fixed length, which parseDuration counts as 365 and 30 days.
 */
export function hasCalendarUnits(input: string): boolean {
  const m = ISO.exec(input.trim());
  return m !== null && (m[1] !== undefined || m[2] !== undefined);
}

export function parseDuration(input: string): number | undefined {
  const text = input.trim();
  if (text === '' || text.startsWith('-')) return undefined;
  let ms: number | undefined;
  if (SECONDS.test(text)) ms = Number(text) * SECOND;
  else if (/^P/i.test(text)) ms = parseIso(text);
  else ms = parsePython(text);
  return ms !== undefined && Number.isFinite(ms) ? ms : undefined;
}

/**
 * Times as the grower reads them: in the browser's time zone, with the zone said where it
 * matters. The service speaks UTC ISO 8601; only the CSV export keeps that form.
 */

/** The browser's zone name ("Europe/Paris"), or undefined where the browser does not say. */
export function zoneName(): string | undefined {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
}

/** "UTC+01:00", "UTC−05:30", "UTC": the zone's offset at that instant (it changes with summer time). */
export function zoneOffset(ms: number, minutes = -new Date(ms).getTimezoneOffset()): string {
  if (minutes === 0) return 'UTC';
  const sign = minutes > 0 ? '+' : '−';
  const abs = Math.abs(minutes);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `UTC${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** "Europe/Paris, UTC+01:00", or the offset alone when the name adds nothing. */
export function zoneLabel(ms: number, name = zoneName(), offset = zoneOffset(ms)): string {
  if (!name || name === 'UTC' || name === 'Etc/UTC') return offset;
  return `${name}, ${offset}`;
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateTimeZoned = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'long' });
const timeOnly = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });

const instant = (at: string | number) => (typeof at === 'number' ? at : Date.parse(at));

/** "24 Nov 2025, 21:05": a date and time in the browser's zone. */
export function localDateTime(at: string | number): string {
  const ms = instant(at);
  return Number.isFinite(ms) ? dateTime.format(ms) : String(at);
}

/** "24 Nov 2025, 21:05:03 CET": with seconds and the zone, for a tooltip. */
export function localDateTimeZoned(at: string | number): string {
  const ms = instant(at);
  return Number.isFinite(ms) ? dateTimeZoned.format(ms) : String(at);
}

/** "21:05": the time of day alone, for an instant within the day shown beside it. */
export function localTime(at: string | number): string {
  const ms = instant(at);
  return Number.isFinite(ms) ? timeOnly.format(ms) : String(at);
}

/** An ISO 8601 date-time with its zone, as the service writes them into its sentences. */
const ISO_INSTANT = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})/g;

/**
 * A sentence of the service ("Sensor possibly stuck: 7 unchanged since 2025-11-24T20:01:00.000Z")
 * with each instant in it written in local time.
 */
export function localizeInstants(text: string): string {
  return text.replace(ISO_INSTANT, (iso) => localDateTimeZoned(iso));
}

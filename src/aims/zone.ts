/**
 * Wall-clock time in an IANA time zone, from the zone data Node carries (Intl): what a grower's
 * "lights on at 06:00" means on the day it is asked, summer time included. No dependency needed.
 */

export interface LocalTime {
  year: number;
  /** 1..12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function format(zone: string): Intl.DateTimeFormat {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(zone, f);
  }
  return f;
}

/** Whether `zone` names a time zone this machine knows. */
export function isKnownZone(zone: string): boolean {
  try {
    format(zone);
    return true;
  } catch {
    return false;
  }
}

/** The zone the machine runs in (the `TZ` environment variable when set). */
export function machineZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC';
}

/** The wall-clock reading of instant `ms` in `zone`. */
export function localTime(ms: number, zone: string): LocalTime {
  const parts: Record<string, number> = {};
  for (const p of format(zone).formatToParts(new Date(ms))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour! % 24, minute: parts.minute!, second: parts.second! };
}

/** How far `zone` is ahead of UTC at instant `ms`, in milliseconds. */
export function zoneOffset(ms: number, zone: string): number {
  const t = localTime(ms, zone);
  const asUtc = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant at which the wall clock of `zone` reads this date and time. A time that does not
 * exist (skipped when clocks go forward) answers the instant the clocks jumped past it, shifted by
 * the gap (02:30 on a spring-forward night is 03:30); a time that happens twice (clocks go back)
 * answers the first.
 */
export function instantOf(year: number, month: number, day: number, hour: number, minute: number, zone: string): number {
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  const before = zoneOffset(wall - 36 * 3600_000, zone);
  const after = zoneOffset(wall + 36 * 3600_000, zone);
  // Try the earlier offset first, so that a repeated hour answers its first occurrence.
  const candidates = [Math.max(before, after), Math.min(before, after)];
  for (const offset of candidates) {
    const at = wall - offset;
    if (zoneOffset(at, zone) === offset) return at;
  }
  // Skipped time: read it with the offset in force before the jump (moves it forward by the gap).
  return wall - before;
}

/** The calendar date `days` after this one (any sign), as year, month, day. */
export function addDays(year: number, month: number, day: number, days: number): { year: number; month: number; day: number } {
  const d = new Date(Date.UTC(year, month - 1, day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** Whole calendar days from date a to date b (b − a), whatever the clocks did in between. */
export function daysBetween(a: { year: number; month: number; day: number }, b: { year: number; month: number; day: number }): number {
  return Math.round((Date.UTC(b.year, b.month - 1, b.day) - Date.UTC(a.year, a.month - 1, a.day)) / 86_400_000);
}

/** "HH:MM" (00:00..23:59) as minutes after midnight, else null. */
export function clockMinutes(text: string): number | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(text);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/** The instant of local time `minutes` after midnight on the local date `days` after that of `at`. */
export function atClock(at: number, days: number, minutes: number, zone: string): number {
  const t = localTime(at, zone);
  const d = addDays(t.year, t.month, t.day, days);
  return instantOf(d.year, d.month, d.day, Math.floor(minutes / 60), minutes % 60, zone);
}

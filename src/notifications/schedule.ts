/**
 * When messages go: the repeats of an unanswered critical alert, and quiet hours. Pure functions
 * of the time, so every branch is tested without a clock.
 */

/** A repeat's wait: `waits[n]` after the n-th message of a critical alert, the last wait repeating. */
export function repeatWait(waits: readonly number[], sent: number): number {
  if (waits.length === 0) throw new Error('no repeat waits');
  return waits[Math.min(Math.max(sent, 0), waits.length - 1)];
}

/** "HH:MM" → minutes after midnight, or undefined when it is not a time of day. */
export function minutesOf(hhmm: string): number | undefined {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(hhmm);
  return match ? Number(match[1]) * 60 + Number(match[2]) : undefined;
}

export interface QuietHours {
  from: string;
  to: string;
}

/** The wall-clock time of day at `at` in `timeZone`, in milliseconds after midnight. */
export function timeOfDayMs(at: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hourCycle: 'h23',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(at));
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return ((part('hour') * 60 + part('minute')) * 60 + part('second')) * 1000 + (((at % 1000) + 1000) % 1000);
}

const DAY_MS = 24 * 3_600_000;

/**
 * When a warning at `at` may go: `at` itself outside quiet hours, else the end of the quiet
 * hours. Quiet hours may wrap midnight (22:00–07:00); `from` equal to `to` means none. The end
 * is found on the wall clock of `timeZone` (on the night clocks change it may be an hour off).
 */
export function quietUntil(at: number, quiet: QuietHours | null, timeZone: string): number {
  if (!quiet) return at;
  const from = minutesOf(quiet.from);
  const to = minutesOf(quiet.to);
  if (from === undefined || to === undefined || from === to) return at;
  const now = timeOfDayMs(at, timeZone);
  const fromMs = from * 60_000;
  const toMs = to * 60_000;
  const inside = from < to ? now >= fromMs && now < toMs : now >= fromMs || now < toMs;
  if (!inside) return at;
  return at + ((toMs - now + DAY_MS) % DAY_MS);
}

/** When a message of this severity goes: critical ones always at once, others after quiet hours. */
export function sendAt(at: number, urgent: boolean, quiet: QuietHours | null, timeZone: string): number {
  return urgent ? at : quietUntil(at, quiet, timeZone);
}

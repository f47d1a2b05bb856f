/**
 * The names of the backup folder: good backups are `sensorhub-YYYYMMDDTHHMMSSZ.db` (UTC, so they
 * sort by time); one being written is `.sensorhub-….db.partial` (hidden, and never a good name).
 */
const GOOD = /^sensorhub-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z\.db$/;
const PARTIAL = /^\.sensorhub-.*\.partial(-wal|-shm|-journal|\.lock)?$/;

/** `20240131T235959Z` for an instant (whole seconds, UTC). */
export function stampOf(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
}

export function backupName(ms: number): string {
  return `sensorhub-${stampOf(ms)}.db`;
}

export function partialName(ms: number, pid: number): string {
  return `.sensorhub-${stampOf(ms)}-${pid}.db.partial`;
}

/** The instant a good backup's name carries, or undefined for any other name. */
export function timeOfBackup(name: string): number | undefined {
  const match = GOOD.exec(name);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s] = match.map(Number);
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  return Number.isNaN(ms) ? undefined : ms;
}

export const isPartial = (name: string): boolean => PARTIAL.test(name);

/** The id of the process that was writing a `.partial` (undefined when its name does not say). */
export function pidOfPartial(name: string): number | undefined {
  const match = /^\.sensorhub-\d{8}T\d{6}Z-(\d+)\.db\.partial/.exec(name);
  return match ? Number(match[1]) : undefined;
}

/** Of good backup names, the ones beyond the newest `keep`: oldest first. Other names are never chosen. */
export function beyondKeep(names: readonly string[], keep: number): string[] {
  const good = names.filter((name) => timeOfBackup(name) !== undefined).sort();
  return good.slice(0, Math.max(0, good.length - keep));
}

/** Grace beyond BACKUP_EVERY before a missing backup is overdue: a backup of a large store takes a while. */
export const OVERDUE_GRACE_MS = 3_600_000;

/**
 * When the next backup is due: BACKUP_EVERY after the newest good one and after the last attempt
 * (a failing backup is tried again a period later, not in a loop); with neither, `soonMs` after start.
 */
export function nextBackupAt(
  newestGoodAt: number | undefined,
  lastAttemptAt: number | undefined,
  startedAt: number,
  everyMs: number,
  soonMs: number,
): number {
  const after = [newestGoodAt, lastAttemptAt].filter((t): t is number => t !== undefined);
  if (after.length === 0) return startedAt + soonMs;
  return Math.max(startedAt + soonMs, Math.max(...after) + everyMs);
}

/** Overdue: no good backup since BACKUP_EVERY plus the grace (counted from the start when there is none). */
export function isOverdue(newestGoodAt: number | undefined, startedAt: number, now: number, everyMs: number): boolean {
  return now - (newestGoodAt ?? startedAt) > everyMs + OVERDUE_GRACE_MS;
}

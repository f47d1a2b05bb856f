/**
 * Levels as the page shows them. The rule itself is the service's (src/alerts/levels.ts, bundled
 * from there): the page computes a level only when the service's status does not report one, and
 * must then reach the same answer.
 */
import { isStale as isStaleAt, severityOf as alertSeverityOf, valueLevel } from '../../../src/alerts/levels.js';
import type { Level as ReportedLevel } from '../api/types';

export { valueLevel };
/** A level as the service reports it (`/prototypes/{id}/status`): also `stale`. */
export type { ReportedLevel };
/** A level a value has by itself, before its age is considered. */
export type Level = Exclude<ReportedLevel, 'stale'>;
/** The tone of a card: `ok` beside the alerts' warning and critical. */
export type Severity = 'ok' | 'warning' | 'critical';

export function severityOf(level: Level): Severity {
  return level === 'ok' ? 'ok' : alertSeverityOf(level);
}

export const LEVEL_LABELS: Record<Level, string> = {
  critically_low: 'critically low',
  low: 'low',
  ok: 'ok',
  high: 'high',
  critically_high: 'critically high',
  invalid: 'invalid',
  stuck: 'possibly stuck',
};

/** Older than the service's STALE_AFTER (seconds): the sensor may be disconnected, whatever its value says. */
export function isStale(timestamp: string, nowMs: number, staleAfterSeconds: number): boolean {
  return isStaleAt(Date.parse(timestamp), nowMs, staleAfterSeconds * 1000);
}

import type { Sensor } from '../api/types';

/**
 * A value's level against its sensor's thresholds, as API.md §11 defines it. Computed here until
 * the service answers it in `/prototypes/{id}/status`; then this is only the fallback.
 */
export type Level = 'critically_low' | 'low' | 'ok' | 'high' | 'critically_high';
export type Severity = 'ok' | 'warning' | 'critical';

type Thresholds = Pick<Sensor, 'threshold_critically_low' | 'threshold_low' | 'threshold_high' | 'threshold_critically_high'>;

export function levelOf(value: number, t: Thresholds): Level {
  if (value < t.threshold_critically_low) return 'critically_low';
  if (value > t.threshold_critically_high) return 'critically_high';
  if (value < t.threshold_low) return 'low';
  if (value > t.threshold_high) return 'high';
  return 'ok';
}

export function severityOf(level: Level): Severity {
  if (level === 'ok') return 'ok';
  return level.startsWith('critically') ? 'critical' : 'warning';
}

export const LEVEL_LABELS: Record<Level, string> = {
  critically_low: 'critically low',
  low: 'low',
  ok: 'ok',
  high: 'high',
  critically_high: 'critically high',
};

/** A level as the service reports it (`/prototypes/{id}/status`): also `stale`. */
export type ReportedLevel = Level | 'stale';

/** Older than the service's STALE_AFTER: the sensor may be disconnected, whatever its value says. */
export function isStale(timestamp: string, nowMs: number, staleAfterSeconds: number): boolean {
  return nowMs - Date.parse(timestamp) > staleAfterSeconds * 1000;
}

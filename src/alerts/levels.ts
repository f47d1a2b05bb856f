import type { Thresholds } from '../domain/thresholds.js';
import type { AlertKind, AlertSeverity, Level } from '../schemas/alerts.js';

/** A value's level by the thresholds: beyond a threshold is strictly beyond, a value equal to one is not. */
export function valueLevel(value: number, t: Thresholds): Exclude<Level, 'stale'> {
  if (value < t.threshold_critically_low) return 'critically_low';
  if (value < t.threshold_low) return 'low';
  if (value > t.threshold_critically_high) return 'critically_high';
  if (value > t.threshold_high) return 'high';
  return 'ok';
}

/** As the actuator decision has it (§3.3): a reading exactly `staleAfterMs` old is still fresh. */
export function isStale(timestamp: number, now: number, staleAfterMs: number): boolean {
  return !(now - timestamp <= staleAfterMs);
}

/** The first whole millisecond at which a reading taken at `timestamp` is stale. */
export function staleAt(timestamp: number, staleAfterMs: number): number {
  return Math.floor(timestamp + staleAfterMs) + 1;
}

/**
 * A sensor's level from its newest measurement: null while it has none (a sensor never measured
 * is neither ok nor stale: nothing is known of it).
 */
export function sensorLevel(
  newest: { value: number; timestamp: number } | undefined,
  thresholds: Thresholds,
  now: number,
  staleAfterMs: number,
): Level | null {
  if (!newest) return null;
  if (isStale(newest.timestamp, now, staleAfterMs)) return 'stale';
  return valueLevel(newest.value, thresholds);
}

/** The kind of alert a level raises; none for `ok` or an unknown level. */
export function kindOf(level: Level | null): AlertKind | undefined {
  switch (level) {
    case 'critically_low':
    case 'low':
      return 'low';
    case 'high':
    case 'critically_high':
      return 'high';
    case 'stale':
      return 'stale';
    default:
      return undefined;
  }
}

export function severityOf(level: Level): AlertSeverity {
  return level === 'critically_low' || level === 'critically_high' ? 'critical' : 'warning';
}

// The dashboard bundles this module (web/src/domain/levels.ts): it imports types only, so nothing
// of the server follows it into the page (eslint.config.js holds it to that).
import type { Thresholds } from '../domain/thresholds.js';
import type { AlertKind, AlertSeverity, Level } from '../domain/alert.js';

/** A value's level by the thresholds: beyond a threshold is strictly beyond, a value equal to one is not. */
export function valueLevel(value: number, t: Thresholds): Exclude<Level, 'stale' | 'invalid' | 'stuck'> {
  if (value < t.threshold_critically_low) return 'critically_low';
  if (value < t.threshold_low) return 'low';
  if (value > t.threshold_critically_high) return 'critically_high';
  if (value > t.threshold_high) return 'high';
  return 'ok';
}

/** Inclusive bounds a reading must fall in (§14); null = unbounded on that side. */
export interface Range {
  min: number | null;
  max: number | null;
}

/** Outside the range, bounds included in it; NaN and infinities are outside (as safety/validity.ts has it). */
export function isOutside(value: number, range: Range | undefined): boolean {
  if (!range) return false;
  if (!Number.isFinite(value)) return true;
  return (range.min !== null && !(value >= range.min)) || (range.max !== null && !(value <= range.max));
}

/** A reading's level by itself: `invalid` outside its valid range, else by the thresholds. */
export function readingLevel(value: number, t: Thresholds, range?: Range): Exclude<Level, 'stale' | 'stuck'> {
  return isOutside(value, range) ? 'invalid' : valueLevel(value, t);
}

/** As the actuator decision has it (§3.3): a reading exactly `staleAfterMs` old is still fresh. */
export function isStale(timestamp: number, now: number, staleAfterMs: number): boolean {
  return !(now - timestamp <= staleAfterMs);
}

/** The first whole millisecond at which a reading taken at `timestamp` is stale. */
export function staleAt(timestamp: number, staleAfterMs: number): number {
  return Math.floor(timestamp + staleAfterMs) + 1;
}

/** What the level reads beside the thresholds (§14): the valid range, and whether the sensor is stuck now. */
export interface Trust {
  range?: Range;
  stuck?: boolean;
}

/**
 * A sensor's level from its newest measurement: null while it has none (a sensor never measured
 * is neither ok nor stale: nothing is known of it). Stale first, then invalid, then stuck.
 */
export function sensorLevel(
  newest: { value: number; timestamp: number } | undefined,
  thresholds: Thresholds,
  now: number,
  staleAfterMs: number,
  trust: Trust = {},
): Level | null {
  if (!newest) return null;
  if (isStale(newest.timestamp, now, staleAfterMs)) return 'stale';
  const level = readingLevel(newest.value, thresholds, trust.range);
  return level !== 'invalid' && trust.stuck ? 'stuck' : level;
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
    case 'invalid':
      return 'invalid';
    case 'stuck':
      return 'stuck';
    default:
      return undefined;
  }
}

export function severityOf(level: Level): AlertSeverity {
  return level === 'critically_low' || level === 'critically_high' || level === 'invalid' ? 'critical' : 'warning';
}

/**
 * A reading outside its sensor's valid range is stored but *invalid*: it never makes a pump run
 * (docs/api.md §14). Both bounds are inclusive. A bound left null takes the sensor type's default.
 */
import type { SensorType } from '../domain/sensor.js';

/** Inclusive bounds; null = unbounded on that side. */
export interface ValidRange {
  min: number | null;
  max: number | null;
}

const UNBOUNDED: ValidRange = { min: null, max: null };

export const DEFAULT_VALID_RANGES: Readonly<Record<SensorType, ValidRange>> = {
  ph: { min: 0, max: 14 },
  humidity: { min: 0, max: 100 },
  boolean_water_level: { min: 0, max: 1 },
  ec: { min: 0, max: null },
  water_level: { min: 0, max: null },
  oxygen: { min: 0, max: null },
  temperature: UNBOUNDED,
};

/** The range a sensor's readings must fall in; a type this code does not know has no default bound. */
export function validRange(sensorType: SensorType, validMin: number | null, validMax: number | null): ValidRange {
  const defaults = Object.hasOwn(DEFAULT_VALID_RANGES, sensorType) ? DEFAULT_VALID_RANGES[sensorType] : UNBOUNDED;
  return { min: validMin ?? defaults.min, max: validMax ?? defaults.max };
}

/** Whether a value lies in the range, bounds included. NaN, infinities and NaN bounds are invalid. */
export function isValid(value: number, range: ValidRange): boolean {
  if (!Number.isFinite(value)) return false;
  if (range.min !== null && !(value >= range.min)) return false;
  if (range.max !== null && !(value <= range.max)) return false;
  return true;
}

/** "0..14", "≥ 0", "≤ 10" or "any value", for statuses. */
export function describeRange(range: ValidRange): string {
  if (range.min !== null && range.max !== null) return `${range.min}..${range.max}`;
  if (range.min !== null) return `≥ ${range.min}`;
  if (range.max !== null) return `≤ ${range.max}`;
  return 'any value';
}

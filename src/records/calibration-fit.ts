import type { CalibrationPoint } from '../domain/calibration.js';

/** Two points or more are accepted when the slope lies within these bounds, both included (docs/api.md §15). */
export const ACCEPTED_SLOPE = { min: 0.9, max: 1.1 } as const;
/** How far past a bound the arithmetic of the fit may land and still count as on it (1.1 is not exact in binary). */
const SLOPE_TOLERANCE = 1e-9;

export interface CalibrationFit {
  slope: number;
  offset: number;
  accepted: boolean;
}

/** Why points cannot be fitted: every reference the same (no slope to find), or numbers too large to fit in a double. */
export type FitProblem = 'references_equal' | 'not_finite';

/**
 * The straight line through the points by least squares: reading ≈ slope × reference + offset.
 * One point is an offset calibration: slope 1, offset reading − reference, accepted (its slope
 * cannot be judged). Two or more are accepted when the slope lies within 0.9 to 1.1. The points
 * are taken as given (the schema allows 1 to 5).
 */
export function fitCalibration(points: readonly CalibrationPoint[]): CalibrationFit | FitProblem {
  if (points.length === 1) {
    const offset = points[0].reading - points[0].reference;
    return Number.isFinite(offset) ? { slope: 1, offset, accepted: true } : 'not_finite';
  }
  if (points.every((p) => p.reference === points[0].reference)) return 'references_equal';
  const n = points.length;
  const meanReference = points.reduce((sum, p) => sum + p.reference, 0) / n;
  const meanReading = points.reduce((sum, p) => sum + p.reading, 0) / n;
  // Centred sums: exact for the small sets of nearby values a calibration has.
  let sxy = 0;
  let sxx = 0;
  for (const p of points) {
    const dx = p.reference - meanReference;
    sxy += dx * (p.reading - meanReading);
    sxx += dx * dx;
  }
  const slope = sxy / sxx;
  const offset = meanReading - slope * meanReference;
  if (!Number.isFinite(slope) || !Number.isFinite(offset)) return 'not_finite';
  const accepted = slope >= ACCEPTED_SLOPE.min - SLOPE_TOLERANCE && slope <= ACCEPTED_SLOPE.max + SLOPE_TOLERANCE;
  return { slope, offset, accepted };
}

/**
 * A probe's calibration in words (docs/api.md §15): the fit of its buffer points, what its slope
 * says about the probe (clean it, replace it), and when the next calibration is due. Pure
 * functions of the service's data and the time.
 */
import type { CalibrationFields, CalibrationPoint } from '../api/records';
import { durationText } from './dosing';

/** At most this many points a calibration takes (§15). */
export const MAX_POINTS = 5;

/**
 * The line through the points, reading ≈ slope × reference + offset, by least squares (as the
 * service fits it). One point: slope 1 and the offset between reading and reference. Null when
 * two or more points share one reference (no slope can be fitted), or there is no point.
 */
export function fitLine(points: readonly CalibrationPoint[]): { slope: number; offset: number } | null {
  if (points.length === 0) return null;
  if (points.length === 1) return { slope: 1, offset: points[0].reading - points[0].reference };
  const meanX = points.reduce((sum, p) => sum + p.reference, 0) / points.length;
  const meanY = points.reduce((sum, p) => sum + p.reading, 0) / points.length;
  let sxy = 0;
  let sxx = 0;
  for (const p of points) {
    sxy += (p.reference - meanX) * (p.reading - meanY);
    sxx += (p.reference - meanX) ** 2;
  }
  if (sxx === 0) return null;
  const slope = sxy / sxx;
  return { slope, offset: meanY - slope * meanX };
}

/** The slope as a percentage of ideal, to one decimal: 0.9862 → 98.6. */
export const slopePercent = (slope: number): number => Math.round(slope * 1000) / 10;

/** A slope in this band (inclusive, in %) is a probe in good order. */
export const GOOD_SLOPE = { min: 95, max: 105 } as const;
/** Outside this band (inclusive, in %) the service does not accept the calibration (§15: 0.9 .. 1.1). */
export const ACCEPTED_SLOPE = { min: 90, max: 110 } as const;

export type VerdictTone = 'good' | 'clean' | 'replace' | 'offset';

export interface Verdict {
  tone: VerdictTone;
  /** One line a grower reads first. */
  headline: string;
  /** What to do about it. */
  advice: string;
}

/** "−0.04", "+0.12": the offset with its sign, in the sensor's unit. */
export function offsetText(offset: number): string {
  const rounded = Number(offset.toFixed(3));
  if (rounded === 0) return '0';
  return rounded > 0 ? `+${rounded}` : `−${Math.abs(rounded)}`;
}

/**
 * What the fit says about the probe. Two or more points: a slope within 95–105 % is good; within
 * 90–110 % it is accepted but the probe wants cleaning; outside (or whenever the service did not
 * accept it) it is refused, and a probe that stays there after cleaning and fresh buffers wants
 * replacing. One point fixes only the offset and says nothing of the slope.
 */
export function calibrationVerdict(fit: { slope: number; offset: number; points: number; accepted?: boolean }): Verdict {
  const offset = offsetText(fit.offset);
  if (fit.points < 2) {
    return {
      tone: 'offset',
      headline: `Offset ${offset}: one buffer checks the offset only`,
      advice: "Use two or three buffers to check the probe's slope as well.",
    };
  }
  const pct = slopePercent(fit.slope);
  const slope = `slope ${pct.toFixed(1)} %`;
  const refused = fit.accepted === false || pct < ACCEPTED_SLOPE.min || pct > ACCEPTED_SLOPE.max;
  if (refused) {
    return {
      tone: 'replace',
      headline: `Not accepted: ${slope} is outside ${ACCEPTED_SLOPE.min}–${ACCEPTED_SLOPE.max} %, offset ${offset}`,
      advice:
        'Clean the probe and calibrate again with fresh buffers. If the slope stays outside, the probe is worn out: replace it. Until then its readings are not to be trusted.',
    };
  }
  if (pct < GOOD_SLOPE.min || pct > GOOD_SLOPE.max) {
    return {
      tone: 'clean',
      headline: `Accepted, but clean the probe: ${slope}, offset ${offset}`,
      advice: `A clean probe reads ${GOOD_SLOPE.min}–${GOOD_SLOPE.max} %. Soak it in cleaning solution, rinse it, and calibrate again.`,
    };
  }
  return { tone: 'good', headline: `Good: ${slope}, offset ${offset}`, advice: 'The probe reads true.' };
}

/**
 * The buffer rows of the form as points: rows left wholly empty are skipped; a row with one
 * number, or text that is no number, is reported by its index.
 */
export function parsePoints(rows: readonly { reference: string; reading: string }[]): {
  points: CalibrationPoint[];
  errors: Record<number, string>;
} {
  const points: CalibrationPoint[] = [];
  const errors: Record<number, string> = {};
  rows.forEach((row, i) => {
    const reference = row.reference.trim().replace(',', '.');
    const reading = row.reading.trim().replace(',', '.');
    if (reference === '' && reading === '') return;
    const point = { reference: Number(reference), reading: Number(reading) };
    if (reference === '' || reading === '' || !Number.isFinite(point.reference) || !Number.isFinite(point.reading)) {
      errors[i] = 'Enter both the buffer’s value and the reading, as numbers';
      return;
    }
    points.push(point);
  });
  return { points, errors };
}

const DAY_MS = 86_400_000;

export interface CalibrationStatus {
  /** "calibrated 12 d ago", "never calibrated". */
  last: string;
  /** "due in 18 d (Tue 25 Nov)", "overdue by 2 d", "no reminder set". */
  due: string;
  overdue: boolean;
}

/** Days as a grower counts them: "3 h" under a day, else whole days. */
function span(ms: number): string {
  return ms < DAY_MS ? durationText(ms, 'floor').replace(/ \d\d (s|min)$/, '') : `${Math.floor(ms / DAY_MS)} d`;
}

/** When the sensor was last calibrated and when it is next due, in words, by the browser's clock. */
export function calibrationStatus(sensor: Partial<CalibrationFields>, nowMs: number): CalibrationStatus {
  const at = sensor.calibrated_at ? Date.parse(sensor.calibrated_at) : Number.NaN;
  const age = Math.max(0, nowMs - at);
  const last = !Number.isFinite(at) ? 'never calibrated' : age < 60_000 ? 'calibrated just now' : `calibrated ${span(age)} ago`;
  const interval = sensor.calibration_interval ?? null;
  if (interval === null) return { last, due: 'no reminder set', overdue: false };
  const dueMs = sensor.calibration_due ? Date.parse(sensor.calibration_due) : Number.NaN;
  // Without a date the service has nothing to count from: a sensor never calibrated is due now.
  if (!Number.isFinite(dueMs)) return { last, due: 'due now', overdue: true };
  const date = new Date(dueMs).toLocaleDateString(undefined, { weekday: 'short', day: 'numeric', month: 'short' });
  if (dueMs <= nowMs) return { last, due: `overdue since ${date} (${span(nowMs - dueMs)})`, overdue: true };
  return { last, due: `due in ${span(dueMs - nowMs)} (${date})`, overdue: false };
}

/**
 * The buffers a calibration form starts with, in the sensor's unit: pH 7, 4 and 10; the EC
 * standards 1.413 and 12.88 mS/cm (1413 and 12880 µS/cm). None for other sensors.
 */
export function bufferPresets(sensorType: string, unit: string): number[] {
  if (sensorType === 'ph') return [7, 4, 10];
  if (sensorType !== 'ec') return [];
  const micro = /^(µ|μ|u)s/i.test(unit.trim());
  return micro ? [1413, 12880] : [1.413, 12.88];
}

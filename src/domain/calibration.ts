import { type Static, Type } from '@sinclair/typebox';
import { DateTimeInput, DateTimeOutput, Id } from './schema-common.js';

/** A calibration holds 1 to 5 points (docs/api.md §15). */
export const MAX_CALIBRATION_POINTS = 5;
/** The longest calibration interval: ten years, so every due date stays far inside the years the store keeps. */
export const MAX_CALIBRATION_INTERVAL_DAYS = 3650;
export const CALIBRATION_NOTE_MAX = 2000;
const DAY_MS = 86_400_000;

export const CalibrationPoint = Type.Object(
  {
    reference: Type.Number({ description: 'The value of the reference (a buffer solution, a calibrated meter).' }),
    reading: Type.Number({ description: 'What the probe read in it.' }),
  },
  { title: 'CalibrationPoint' },
);
export type CalibrationPoint = Static<typeof CalibrationPoint>;

export const CalibrationBody = Type.Object(
  {
    points: Type.Array(CalibrationPoint, {
      minItems: 1,
      maxItems: MAX_CALIBRATION_POINTS,
      description: `1 to ${MAX_CALIBRATION_POINTS} points; with two or more, the references must not all be equal.`,
    }),
    note: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: CALIBRATION_NOTE_MAX }), Type.Null()])),
    calibrated_at: Type.Optional(DateTimeInput('When it was calibrated; default now. At most 5 minutes in the future.')),
  },
  { title: 'CalibrationBody' },
);
export type CalibrationBody = Static<typeof CalibrationBody>;

export const Calibration = Type.Object(
  {
    calibration_id: Id('Assigned by the service.'),
    sensor_id: Id(),
    calibrated_at: DateTimeOutput(),
    points: Type.Array(CalibrationPoint),
    slope: Type.Number({
      description: 'Least squares of reading against reference: reading ≈ slope × reference + offset. 1 for one point.',
    }),
    offset: Type.Number({ description: 'For one point: reading − reference.' }),
    accepted: Type.Boolean({
      description: 'Two points or more: slope within 0.9 to 1.1. One point: always (an offset calibration; the slope cannot be judged).',
    }),
    note: Type.Union([Type.String(), Type.Null()]),
    author: Type.Union([Type.String(), Type.Null()], { description: 'The user who recorded it; null in open mode.' }),
  },
  { title: 'Calibration' },
);
export type Calibration = Static<typeof Calibration>;

/** A calibration as the store keeps it: the time in epoch ms. */
export type StoredCalibration = Omit<Calibration, 'calibrated_at'> & { calibrated_at: number };

export const calibrationView = (stored: StoredCalibration): Calibration => ({
  ...stored,
  calibrated_at: new Date(stored.calibrated_at).toISOString(),
});

/** What a sensor's reminder was before a change: its interval (days) and due instant (epoch ms). */
export interface CalibrationReminder {
  intervalDays: number | null;
  due: number | null;
}

/**
 * When the sensor's next calibration falls due (epoch ms), or null with reminders off
 * (`intervalDays` null): its last accepted calibration plus the interval. A sensor never
 * calibrated is due from the moment its interval was set — at once, since nothing says it was
 * ever calibrated — and stays due from then while the interval stays set (`before`).
 */
export function calibrationDue(
  intervalDays: number | null,
  calibratedAt: number | null,
  before: CalibrationReminder,
  now: number,
): number | null {
  if (intervalDays === null) return null;
  if (calibratedAt !== null) return calibratedAt + intervalDays * DAY_MS;
  return before.intervalDays !== null && before.due !== null ? before.due : now;
}

/**
 * Shapes of the grower's records (docs/api.md §15): volumes and stock, dose totals, refills,
 * calibrations, notes and the journal. Written by hand from the contract while the service's
 * schemas for them are being built; TO BE REPLACED by imports of those TypeBox schemas (as
 * types.ts does for the rest), so that a change on either side is a type error.
 */
import type { ActivationRecord, Actuator, Sensor } from './types';

/** §15 actuator fields: null means not set (no flow known, no limit, stock not tracked, no warning). */
export interface VolumeFields {
  flow_ml_per_s: number | null;
  max_ml_per_day: number | null;
  stock_ml: number | null;
  stock_low_ml: number | null;
}

/** An actuator as the page reads it: the §15 fields are absent on a service that predates them. */
export type RecordsActuator = Actuator & Partial<VolumeFields>;

/** A dose with its volume (`duration × flow_ml_per_s` then; null without a flow). */
export type Dose = ActivationRecord & { volume_ml?: number | null };

/** `GET /actuators/{id}/doses?bucket=1h|1d`: one bucket of doses, ascending. */
export interface DoseBucket {
  start: string;
  end: string;
  doses: number;
  seconds: number;
  /** Null when none of its doses has a volume (no flow set). */
  volume_ml: number | null;
}

export interface DoseBucketQuery {
  bucket: '1h' | '1d';
  start_time?: string;
  end_time?: string;
}

/** §15 sensor fields. */
export interface CalibrationFields {
  /** Days between calibrations; null: no reminder. */
  calibration_interval: number | null;
  /** Read-only: the newest accepted calibration. */
  calibrated_at: string | null;
  /** Read-only: when the next one is due; null without an interval. */
  calibration_due: string | null;
}

export type RecordsSensor = Sensor & Partial<CalibrationFields>;

/** A buffer point: the buffer's true value and what the probe read in it. */
export interface CalibrationPoint {
  reference: number;
  reading: number;
}

export interface CalibrationInput {
  points: CalibrationPoint[];
  note?: string;
  calibrated_at?: string;
}

export interface Calibration {
  calibration_id: number;
  sensor_id: number;
  calibrated_at: string;
  points: CalibrationPoint[];
  note?: string | null;
  /** Least squares of reading against reference: reading ≈ slope × reference + offset. */
  slope: number;
  offset: number;
  accepted: boolean;
}

export interface Note {
  note_id: number;
  prototype_id: number;
  at: string;
  text: string;
  tags: string[];
  /** Who wrote it (enforced mode); null in open mode. */
  author: string | null;
}

export interface NoteInput {
  text: string;
  tags?: string[];
  at?: string;
}

export type NotePatch = Partial<NoteInput>;

export interface NoteQuery {
  prototype_id?: number;
  start_time?: string;
  end_time?: string;
  tag?: string;
  limit?: number;
  before?: number;
}

/** What the journal merges (§15). */
export const JOURNAL_TYPES = ['note', 'dose', 'calibration', 'lockout', 'unlock', 'refill', 'pause', 'resume'] as const;
export type JournalType = (typeof JOURNAL_TYPES)[number];

/** A detail of a journal entry: a number, a text, a yes/no, or nothing. */
export type DetailValue = number | string | boolean | null;

/** One line of `GET /prototypes/{id}/journal`: what every kind of record has, and its own `detail`. */
export interface JournalEntry {
  type: string;
  at: string;
  /** Its id among its kind: note_id, activation_id, calibration_id… */
  id: number;
  /** Passed as `before` for the entries after this one. */
  cursor: string;
  sensor_id: number | null;
  actuator_id: number | null;
  author: string | null;
  /** A note's text, a calibration's note, a lockout's reason. */
  text: string | null;
  tags: string[];
  /** dose {duration, value_before, answered, volume_ml}; calibration {slope, offset, accepted, points}; refill {stock_ml}; pause {until}. */
  detail: Record<string, DetailValue>;
}

export interface JournalQuery {
  start_time?: string;
  end_time?: string;
  limit?: number;
  /** An entry's `cursor`: the entries after it. */
  before?: string;
  /** Comma-separated types; default all. */
  type?: string;
  tag?: string;
}

/** The `note` event (§9): a note written or changed, or the id of one deleted. */
export type NoteChange = Note | { deleted: number; prototype_id?: number };

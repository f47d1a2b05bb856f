/**
 * Shapes of the grower's records (docs/api.md §15): dose totals, refills, calibrations, notes and
 * the journal, taken from the service's own TypeBox schemas: a change there is a type error here.
 */
import type { Calibration, CalibrationBody, CalibrationPoint } from '../../../src/domain/calibration.js';
import type { Note, NoteBody, NotePatch } from '../../../src/domain/note.js';
import type { DoseTotals, DoseTotalsQuery } from '../../../src/doses/schemas.js';
import type { JournalEntry, JournalQuery, NoteListQuery } from '../../../src/records/schemas.js';
import type { ActivationRecord, Actuator, Sensor } from './types';

export type { Calibration, CalibrationPoint, JournalEntry, JournalQuery, Note, NotePatch };
export type CalibrationInput = CalibrationBody;
export type NoteInput = NoteBody;
export type NoteQuery = NoteListQuery;
/** `GET /actuators/{id}/doses`: one bucket of doses, ascending. */
export type DoseBucket = DoseTotals;
export type DoseBucketQuery = DoseTotalsQuery;
/** A dose with its volume (`duration × flow_ml_per_s` then; null without a flow). */
export type Dose = ActivationRecord;

/** §15 actuator fields: null means not set (no flow known, no limit, stock not tracked, no warning). */
export type VolumeFields = Pick<Actuator, 'flow_ml_per_s' | 'max_ml_per_day' | 'stock_ml' | 'stock_low_ml'>;
/** §15 sensor fields: the reminder's interval (days) and the read-only dates. */
export type CalibrationFields = Pick<Sensor, 'calibration_interval' | 'calibrated_at' | 'calibration_due'>;

/** A detail of a journal entry: a number, a text, a yes/no, or nothing. */
export type DetailValue = JournalEntry['detail'][string];

/**
 * What the journal merges (§15), in the order its filter offers them; the service's list
 * (`src/records/journal-sources.ts`) is checked against it in web/test/journal.test.ts.
 */
export const JOURNAL_TYPES = ['note', 'dose', 'calibration', 'lockout', 'unlock', 'refill', 'pause', 'resume', 'settings', 'hold'] as const;
export type JournalType = (typeof JOURNAL_TYPES)[number];

/** The `note` event (§9): a note written or changed, or the id of one deleted. */
export type NoteChange = Note | { deleted: number; prototype_id?: number };

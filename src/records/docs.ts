import { doc } from '../http/route-doc.js';

const SENSORS = 'Sensors';
const JOURNAL = 'Journal';

const MODIFY = 'Needs modify (4) in AUTH_MODE=enforced, which records the user as author.';

export const recordDocs = {
  calibrate: doc(
    SENSORS,
    'Post Calibration',
    'postCalibration',
    'Records a calibration of the sensor’s probe: 1 to 5 points {reference, reading}, an optional note (1 to 2000 ' +
      'characters) and calibrated_at (default now; more than 5 minutes ahead → 422). The answer holds the line fitted by ' +
      'least squares, reading ≈ slope × reference + offset (one point: slope 1, offset reading − reference), and ' +
      '`accepted`: for two points or more, a slope within 0.9 to 1.1 (both included); one point is an offset calibration, ' +
      'always accepted. Two points or more whose references are all equal → 422 (no slope can be fitted). An accepted ' +
      'calibration newer than the sensor’s calibrated_at becomes it, moves calibration_due to calibrated_at + ' +
      'calibration_interval and clears a calibration_due alert; a refused one (or an older one, dated back) is kept in ' +
      'the list and changes neither. The service stores and reminds: it never rewrites readings (probes such as Atlas EZO ' +
      'calibrate on the device). 404 when the sensor does not exist; nothing is written on a 404 or 422. ' +
      MODIFY,
  ),
  calibrations: doc(
    SENSORS,
    'Calibrations',
    'calibrations',
    'The sensor’s calibrations, newest first by calibrated_at (ties: the later recorded first), at most `limit`. 404 ' +
      'when the sensor does not exist. Needs read (2) in AUTH_MODE=enforced.',
  ),
  postNote: doc(
    JOURNAL,
    'Post Note',
    'postNote',
    'Writes a note in the prototype’s journal: text (1 to 2000 characters, not all blank), at (default now; more than 5 ' +
      'minutes ahead → 422), tags (up to 8 of 1 to 32 characters; spaces around each are dropped, a repeat is kept once, a ' +
      'blank one → 422). author is the user in enforced mode, null in open mode. 404 when the prototype does not exist. ' +
      'Publishes a `note` event. ' +
      MODIFY,
  ),
  notes: doc(
    JOURNAL,
    'Notes',
    'notes',
    'Notes newest first by `at` (ties: the later written first). Filters: prototype_id, start_time and end_time ' +
      '([start, end)), tag (exact). Paging: `before` names the note_id of the last note of the previous page (one that no ' +
      'longer exists → 422). An unknown prototype_id selects nothing. Needs read (2) in AUTH_MODE=enforced.',
  ),
  getNote: doc(JOURNAL, 'Note', 'note', 'The note; 404 when it does not exist. Needs read (2) in AUTH_MODE=enforced.'),
  patchNote: doc(
    JOURNAL,
    'Update Note',
    'updateNote',
    'Changes any of text, at and tags (tags replaces the list), under the rules of Post Note; its author stays the user who ' +
      'wrote it (any user with modify may change any note). 404 when it does not exist; nothing is written on a 404 or ' +
      '422. Publishes a `note` event. Needs modify (4) in AUTH_MODE=enforced.',
  ),
  deleteNote: doc(
    JOURNAL,
    'Delete Note',
    'deleteNote',
    'Deletes the note: 204 without a body; 404 when it does not exist. Publishes a `note` event ({"deleted": note_id, ' +
      '"prototype_id"}). Needs modify (4) in AUTH_MODE=enforced.',
  ),
  journal: doc(
    JOURNAL,
    'Journal',
    'journal',
    'The prototype’s journal, newest first: its notes, the doses of the actuators on its sensors, the calibrations of its ' +
      'sensors, the lockouts and unlocks of those actuators, and its pauses and resumes (a resume: a pause ended early by ' +
      'DELETE /prototypes/{id}/pause), each with its `type` and `at`. Entries of the same instant: lockouts, unlocks, ' +
      'pauses and resumes first, then calibrations, doses and notes, and within each the later recorded first. Filters: start_time and end_time ' +
      '([start, end)), type (comma-separated; an unknown one → 422), tag (notes carrying it, and so notes only). Paging: ' +
      '`before` takes the `cursor` of the last entry of the previous page. format=csv answers the same entries as a CSV ' +
      'file, every entry when limit is not given (as GET /prototypes/{id}/journal.csv). 404 when the prototype does not ' +
      'exist. Needs read (2) in AUTH_MODE=enforced.',
  ),
  journalCsv: doc(
    JOURNAL,
    'Journal Csv',
    'journalCsv',
    'The prototype’s journal as CSV (RFC 4180, CRLF line ends), newest first, streamed as it is read: columns type, at ' +
      '(ISO 8601 UTC), id, sensor_id, actuator_id, author, text, tags (joined by "; "), then each detail (duration, ' +
      'volume_ml, value_before, answered, stock_ml, slope, offset, accepted, points, until); a field that does not apply is empty. Text that ' +
      "a spreadsheet would take for a formula (starting with =, +, -, @, a tab or a carriage return) gets a leading '. Filters as " +
      'GET /prototypes/{id}/journal; every entry unless limit is given. 404 when the prototype does not exist. Needs read ' +
      '(2) in AUTH_MODE=enforced.',
  ),
};

import { type Static, Type } from '@sinclair/typebox';
import { NOTE_TAG_MAX } from '../domain/note.js';
import { DateTimeInput, DateTimeOutput, Id, StringEnum } from '../domain/schema-common.js';
import { JOURNAL_TYPES } from './journal-sources.js';

/** The longest page of notes or of the journal. */
export const MAX_PAGE = 1000;

const Limit = Type.Integer({
  minimum: 1,
  maximum: MAX_PAGE,
  default: 100,
  description: `At most this many, newest first (1 to ${MAX_PAGE}, default 100).`,
});
const Tag = Type.String({ minLength: 1, maxLength: NOTE_TAG_MAX, description: 'Only the notes carrying this tag (exactly as written).' });

export const CalibrationListQuery = Type.Object({ limit: Type.Optional(Limit) });
export type CalibrationListQuery = Static<typeof CalibrationListQuery>;

export const NoteListQuery = Type.Object({
  prototype_id: Type.Optional(Id('Only this prototype’s notes.')),
  start_time: Type.Optional(DateTimeInput('Only notes at or after this instant.')),
  end_time: Type.Optional(DateTimeInput('Only notes before this instant.')),
  tag: Type.Optional(Tag),
  limit: Type.Optional(Limit),
  before: Type.Optional(Id('Paging: the note_id of the last note of the previous page; the page holds the notes after it.')),
});
export type NoteListQuery = Static<typeof NoteListQuery>;

const DetailValue = Type.Union([Type.Number(), Type.String(), Type.Boolean(), Type.Null()]);

export const JournalEntry = Type.Object(
  {
    type: StringEnum(JOURNAL_TYPES),
    at: DateTimeOutput('When it happened.'),
    id: Id('Its id among its kind: note_id, activation_id, refill_id, calibration_id, or the id of a lockout, unlock, pause or resume.'),
    cursor: Type.String({ description: 'Pass as `before` for the entries after this one.' }),
    sensor_id: Type.Union([Id(), Type.Null()], { description: 'A dose’s actuator’s sensor, a calibration’s sensor; else null.' }),
    actuator_id: Type.Union([Id(), Type.Null()], { description: 'A dose’s, lockout’s or unlock’s actuator; else null.' }),
    author: Type.Union([Type.String(), Type.Null()], {
      description:
        'Who wrote the note, recorded the calibration, unlocked, paused or resumed; null in open mode and for the service’s own.',
    }),
    text: Type.Union([Type.String(), Type.Null()], { description: 'A note’s text, a calibration’s note, a lockout’s reason; else null.' }),
    tags: Type.Array(Type.String(), { description: 'A note’s tags; empty for the others.' }),
    detail: Type.Record(Type.String(), DetailValue, {
      description:
        'What the type says beside: dose {duration, volume_ml, value_before, answered}; refill {stock_ml}; calibration {slope, offset, accepted, points (how ' +
        'many)}; lockout, unlock, pause, resume {until} (a pause’s end, else null); hold {until} (when the next change of the ' +
        'decision ended the hold; null while it lasts; the hold’s status is the text); settings {} (a change of an actuator’s ' +
        'or sensor’s settings: its text names each field changed, from → to; author who made it); note {}.',
    }),
  },
  { title: 'JournalEntry' },
);
export type JournalEntry = Static<typeof JournalEntry>;

export const JournalQuery = Type.Object({
  start_time: Type.Optional(DateTimeInput('Only entries at or after this instant.')),
  end_time: Type.Optional(DateTimeInput('Only entries before this instant.')),
  type: Type.Optional(
    Type.String({
      maxLength: 200,
      description: `Comma-separated subset of: ${JOURNAL_TYPES.join(', ')}. Default: all but hold (a pump's holds are many: ask for them).`,
    }),
  ),
  tag: Type.Optional(Tag),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_PAGE,
      description: `At most this many, newest first (1 to ${MAX_PAGE}; default 100, and every entry for CSV).`,
    }),
  ),
  before: Type.Optional(
    Type.String({
      pattern: '^-?\\d{1,15}\\.[a-z_]{1,32}\\.\\d{1,10}$',
      description: 'Paging: the `cursor` of the last entry of the previous page.',
    }),
  ),
  format: Type.Optional(StringEnum(['json', 'csv'] as const, 'json (default), or csv: the same entries as a CSV file.')),
});
export type JournalQuery = Static<typeof JournalQuery>;

export const JournalCsvQuery = Type.Omit(JournalQuery, ['format']);
export type JournalCsvQuery = Static<typeof JournalCsvQuery>;

/** The calls of the grower's records (docs/api.md §15), one function each. */
import { send, sendJson } from './client';
import type {
  Calibration,
  CalibrationInput,
  DoseBucket,
  DoseBucketQuery,
  JournalEntry,
  JournalQuery,
  Note,
  NoteInput,
  NotePatch,
  NoteQuery,
} from './records';
import type { Actuator } from './types';
import { usualFromHeaders, type UsualDosing } from '../domain/usual';

export const journalCsvPath = (prototypeId: number) => `/prototypes/${prototypeId}/journal.csv`;

export const recordsApi = {
  /** Dose totals per hour or day, ascending. */
  doseBuckets: (actuatorId: number, query: DoseBucketQuery) =>
    sendJson<DoseBucket[]>('GET', `/actuators/${actuatorId}/doses`, { query: { ...query } }),
  /** The same totals with the usual dosing the service answers beside them (null from a service that does not). */
  doseTotals: async (actuatorId: number, query: DoseBucketQuery): Promise<{ buckets: DoseBucket[]; usual: UsualDosing | null }> => {
    const response = await send('GET', `/actuators/${actuatorId}/doses`, { query: { ...query } });
    return { buckets: (await response.json()) as DoseBucket[], usual: usualFromHeaders(response.headers) };
  },
  /** Sets the bottle's content (and clears a `stock_low` alert). */
  refill: (actuatorId: number, stockMl: number) =>
    sendJson<Actuator>('POST', `/actuators/${actuatorId}/refill`, { json: { stock_ml: stockMl } }),

  calibrations: (sensorId: number, query: { limit?: number } = {}) =>
    sendJson<Calibration[]>('GET', `/sensors/${sensorId}/calibrations`, { query: { ...query } }),
  recordCalibration: (sensorId: number, input: CalibrationInput) =>
    sendJson<Calibration>('POST', `/sensors/${sensorId}/calibrations`, { json: input }),

  notes: (query: NoteQuery) => sendJson<Note[]>('GET', '/notes', { query: { ...query } }),
  addNote: (prototypeId: number, note: NoteInput) => sendJson<Note>('POST', `/prototypes/${prototypeId}/notes`, { json: note }),
  updateNote: (noteId: number, patch: NotePatch) => sendJson<Note>('PATCH', `/notes/${noteId}`, { json: patch }),
  deleteNote: async (noteId: number): Promise<void> => {
    await send('DELETE', `/notes/${noteId}`);
  },

  /** Notes, doses, calibrations, lockouts, unlocks, refills and pauses, newest first. */
  journal: (prototypeId: number, query: JournalQuery) =>
    sendJson<JournalEntry[]>('GET', `/prototypes/${prototypeId}/journal`, { query: { ...query } }),
  /** The journal as CSV, with the session's token (a plain link would carry none in enforced mode). */
  journalCsv: async (prototypeId: number, query: Omit<JournalQuery, 'limit' | 'before'>): Promise<Blob> =>
    (await send('GET', journalCsvPath(prototypeId), { query: { ...query } })).blob(),
};

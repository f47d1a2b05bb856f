/**
 * The journal in words (docs/api.md §15): each entry's label and sentence, the entries grouped by
 * the browser's calendar day, times in local time, notes' tags, and whose notes may be edited.
 * Pure functions of the service's data.
 */
import { JOURNAL_TYPES, type JournalEntry, type JournalType, type Note, type NoteChange } from '../api/records';
import { localizeInstants, localTime } from './local-time';
import { mlText } from './volumes';
import { offsetText, slopePercent } from './calibration';

export const TYPE_LABELS: Record<JournalType, string> = {
  note: 'Note',
  dose: 'Dose',
  calibration: 'Calibration',
  lockout: 'Lockout',
  unlock: 'Unlock',
  refill: 'Refill',
  pause: 'Pause',
  resume: 'Resume',
  settings: 'Settings',
  hold: 'Held',
};

/** The label of a type; a type this page does not know yet keeps its own name. */
export const typeLabel = (type: string): string =>
  (TYPE_LABELS as Record<string, string>)[type] ?? type.charAt(0).toUpperCase() + type.slice(1).replace(/_/g, ' ');

/** What the journal's filter offers: each choice the types it asks the service for. */
export const TYPE_FILTERS: readonly { value: string; label: string }[] = [
  { value: '', label: 'Everything' },
  { value: 'note', label: 'Notes' },
  { value: 'dose', label: 'Doses' },
  { value: 'calibration', label: 'Calibrations' },
  { value: 'lockout,unlock', label: 'Lockouts and unlocks' },
  { value: 'refill', label: 'Refills' },
  { value: 'pause,resume', label: 'Pauses and resumes' },
  { value: 'settings', label: 'Settings changes' },
  { value: 'hold', label: 'Holds: why a pump did not run' },
];

/**
 * What the journal asks the service for: the types chosen, or for "Everything" every type this
 * page knows, the holds among them (the service leaves them out unless asked).
 */
export const journalTypes = (chosen: string): string => chosen || JOURNAL_TYPES.join(',');

/** Names the journal's sentences use for the prototype's sensors and actuators. */
export interface JournalNames {
  sensor: (id: number) => string;
  actuator: (id: number) => string;
}

const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** The sentence of a journal entry: what happened, to what, in the grower's terms. */
export function entryText(entry: JournalEntry, names: JournalNames): string {
  const { detail } = entry;
  const pump = entry.actuator_id === null ? 'A pump' : names.actuator(entry.actuator_id);
  const by = entry.author ? ` by ${entry.author}` : '';
  // The service's own sentences (a lockout's reason, a hold's status, a settings change) may
  // carry instants in UTC ISO form: written in local time like every other time on the page.
  const said = entry.text ? localizeInstants(entry.text) : null;
  switch (entry.type) {
    case 'note':
      return entry.text ?? '';
    case 'dose': {
      const seconds = num(detail.duration);
      const ml = num(detail.volume_ml);
      const amount = [seconds === null ? null : `${trimmed(seconds)} s`, ml === null ? null : mlText(ml)].filter(Boolean).join(', ');
      const answered = detail.answered === true ? ': the reading moved' : detail.answered === false ? ': the reading did not move' : '';
      return `${pump} ran${amount ? ` (${amount})` : ''}${answered}`;
    }
    case 'calibration': {
      const sensor = entry.sensor_id === null ? 'A sensor' : names.sensor(entry.sensor_id);
      const slope = num(detail.slope);
      const offset = num(detail.offset);
      const points = num(detail.points);
      // One point fixes the offset alone: its slope of 1 says nothing of the probe.
      const fit = [
        slope === null || points === 1 ? null : `slope ${slopePercent(slope).toFixed(1)} %`,
        offset === null ? null : `offset ${offsetText(offset)}`,
      ]
        .filter(Boolean)
        .join(', ');
      const verdict = detail.accepted === false ? ', not accepted' : detail.accepted === true ? ', accepted' : '';
      return `${sensor} calibrated${fit ? `: ${fit}` : ''}${verdict}${by}${entry.text ? ` (${entry.text})` : ''}`;
    }
    case 'lockout':
      return `${pump} locked out${said ? `: ${said}` : ''}`;
    case 'unlock':
      return `${pump} unlocked${by}`;
    case 'refill': {
      const ml = num(detail.stock_ml);
      return `${pump} refilled${ml === null ? '' : ` to ${mlText(ml)}`}${by}`;
    }
    case 'pause': {
      const until = str(detail.until);
      return `Dosing paused${until ? ` until ${localTime(until)}` : ''}${by}`;
    }
    case 'resume':
      return `Dosing resumed${by}`;
    case 'settings': {
      const subject =
        entry.actuator_id !== null
          ? names.actuator(entry.actuator_id)
          : entry.sensor_id !== null
            ? names.sensor(entry.sensor_id)
            : 'Settings';
      return `${subject} settings changed${by}${said ? `: ${said}` : ''}`;
    }
    case 'hold': {
      // A span: from its start to the next change of the pump's decision, or still going on.
      const until = str(detail.until);
      const span = until ? `from ${localTime(entry.at)} to ${localTime(until)}` : `since ${localTime(entry.at)}`;
      return `${pump} held ${span}${said ? `: ${said}` : ''}${by}`;
    }
    default:
      return entry.text ?? typeLabel(entry.type);
  }
}

const trimmed = (n: number) => String(Number(n.toFixed(2)));

/** A stable key for an entry in a list: its type and its id among its kind. */
export const entryKey = (entry: Pick<JournalEntry, 'type' | 'id'>): string => `${entry.type}:${entry.id}`;

/** A journal entry that is a note, as a Note; null for every other type. */
export function entryNote(entry: JournalEntry, prototypeId = 0): Note | null {
  if (entry.type !== 'note') return null;
  return { note_id: entry.id, prototype_id: prototypeId, at: entry.at, text: entry.text ?? '', tags: entry.tags, author: entry.author };
}

/**
 * A note as a journal entry, with the cursor the service would give it (`<epoch ms>.note.<id>`),
 * so that the next page after it reads on from there.
 */
export const noteEntry = (note: Note): JournalEntry => ({
  type: 'note',
  at: note.at,
  id: note.note_id,
  cursor: `${Date.parse(note.at)}.note.${note.note_id}`,
  sensor_id: null,
  actuator_id: null,
  author: note.author,
  text: note.text,
  tags: note.tags,
  detail: {},
});

export interface DayGroup {
  /** The local date, `YYYY-MM-DD`. */
  key: string;
  /** "Today", "Yesterday", "Mon 24 Nov". */
  label: string;
  entries: JournalEntry[];
}

const dayKey = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

/** The entries (newest first) under a heading per local day, in the order given. */
export function groupByDay(entries: readonly JournalEntry[], nowMs: number): DayGroup[] {
  const today = dayKey(new Date(nowMs));
  const yesterdayDate = new Date(nowMs);
  yesterdayDate.setDate(yesterdayDate.getDate() - 1);
  const yesterday = dayKey(yesterdayDate);
  const groups: DayGroup[] = [];
  for (const entry of entries) {
    const date = new Date(entry.at);
    const key = dayKey(date);
    let group = groups.at(-1);
    if (!group || group.key !== key) {
      const sameYear = date.getFullYear() === new Date(nowMs).getFullYear();
      const label =
        key === today
          ? 'Today'
          : key === yesterday
            ? 'Yesterday'
            : date.toLocaleDateString(undefined, {
                weekday: 'short',
                day: 'numeric',
                month: 'short',
                year: sameYear ? undefined : 'numeric',
              });
      group = { key, label, entries: [] };
      groups.push(group);
    }
    group.entries.push(entry);
  }
  return groups;
}

/** Tags as typed, comma-separated: trimmed, empty ones dropped, each once. */
export function parseTags(text: string): string[] {
  const seen = new Set<string>();
  for (const part of text.split(',')) {
    const tag = part.trim();
    if (tag !== '') seen.add(tag);
  }
  return [...seen];
}

/** Every tag the notes carry, sorted, for the filter's suggestions. */
export function tagsOf(entries: readonly JournalEntry[]): string[] {
  const tags = new Set<string>();
  for (const entry of entries) for (const tag of entryNote(entry)?.tags ?? []) tags.add(tag);
  return [...tags].sort((a, b) => a.localeCompare(b));
}

/**
 * Whether this session may change or delete the note: its own notes only, and only with the
 * `modify` permission. A note without an author was written in open mode, where nobody signs in.
 */
export function canEditNote(note: Pick<Note, 'author'>, username: string | null, canModify: boolean): boolean {
  return canModify && (note.author === null || note.author === username);
}

/** The note a `note` event carries, or the id of the one deleted. */
export function noteOfChange(change: NoteChange): { note: Note | null; deletedId: number | null } {
  return 'deleted' in change ? { note: null, deletedId: change.deleted } : { note: change, deletedId: null };
}

/**
 * A list of journal entries after a note changed: the note replaces its older self or, when it
 * is new, takes its place by time (newest first); a deleted note leaves.
 */
export function applyNoteChange(entries: readonly JournalEntry[], change: NoteChange): JournalEntry[] {
  const { note, deletedId } = noteOfChange(change);
  const id = note?.note_id ?? deletedId;
  const others = entries.filter((entry) => !(entry.type === 'note' && entry.id === id));
  if (!note) return others;
  const atMs = Date.parse(note.at);
  const index = others.findIndex((entry) => Date.parse(entry.at) < atMs);
  const entry = noteEntry(note);
  return index < 0 ? [...others, entry] : [...others.slice(0, index), entry, ...others.slice(index)];
}

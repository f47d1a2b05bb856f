import { describe, expect, it } from 'vitest';
import { JOURNAL_TYPES as SERVICE_TYPES } from '../../src/records/journal-sources.js';
import { JOURNAL_TYPES, type JournalEntry, type Note } from '../src/api/records';
import {
  applyNoteChange,
  canEditNote,
  entryKey,
  entryNote,
  entryText,
  TYPE_FILTERS,
  groupByDay,
  journalTypes,
  noteEntry,
  parseTags,
  tagsOf,
  typeLabel,
} from '../src/domain/journal';
import { localTime } from '../src/domain/local-time';

const names = { sensor: (id: number) => `pH #${id}`, actuator: (id: number) => `Acid pump #${id}` };
const note = (id: number, at: string, extra: Partial<Note> = {}): Note => ({
  note_id: id,
  prototype_id: 0,
  at,
  text: `note ${id}`,
  tags: [],
  author: null,
  ...extra,
});
const local = (day: number, hour: number, minute = 0) => new Date(2025, 10, day, hour, minute).toISOString();

/** A journal entry as the service answers it. */
const entry = (type: string, id: number, fields: Partial<JournalEntry> = {}): JournalEntry => ({
  type,
  at: local(25, 9),
  id,
  cursor: `${Date.parse(fields.at ?? local(25, 9))}.${type}.${id}`,
  sensor_id: null,
  actuator_id: null,
  author: null,
  text: null,
  tags: [],
  detail: {},
  ...fields,
});

describe('entryText', () => {
  it('says a hold as a span, with its status and who caused it', () => {
    const hold = entry('hold', 3, {
      at: local(25, 3, 10),
      actuator_id: 4,
      sensor_id: 2,
      text: 'Interlock: Tank level is 10 (below 20)',
      detail: { until: local(25, 5, 40) },
    });
    const [from, to] = [localTime(local(25, 3, 10)), localTime(local(25, 5, 40))];
    expect(entryText(hold, names)).toBe(`Acid pump #4 held from ${from} to ${to}: Interlock: Tank level is 10 (below 20)`);
    expect(entryText({ ...hold, detail: { until: null }, author: 'ana' }, names)).toBe(
      `Acid pump #4 held since ${from}: Interlock: Tank level is 10 (below 20) by ana`,
    );
  });

  it('says a settings change: whose settings, who changed them, each field from and to', () => {
    const change = entry('settings', 6, { actuator_id: 4, author: 'ana', text: 'condition_value 6.5 → 6.2' });
    expect(entryText(change, names)).toBe('Acid pump #4 settings changed by ana: condition_value 6.5 → 6.2');
    expect(entryText({ ...change, actuator_id: null, sensor_id: 2, author: null }, names)).toBe(
      'pH #2 settings changed: condition_value 6.5 → 6.2',
    );
  });

  it('asks for every type, holds included, for "Everything"', () => {
    expect(journalTypes('')).toBe(JOURNAL_TYPES.join(','));
    expect(journalTypes('')).toContain('hold');
    expect(journalTypes('dose')).toBe('dose');
  });

  it('says a note by its text', () => {
    expect(entryText(noteEntry(note(1, local(25, 9), { text: 'Changed the filter' })), names)).toBe('Changed the filter');
  });

  it('says a dose with its seconds, its volume and whether it was answered', () => {
    const dose = entry('dose', 8, { actuator_id: 4, sensor_id: 2, detail: { duration: 2, value_before: 7, answered: true, volume_ml: 5 } });
    expect(entryText(dose, names)).toBe('Acid pump #4 ran (2 s, 5 ml): the reading moved');
    expect(entryText({ ...dose, detail: { duration: 2, answered: false, volume_ml: null } }, names)).toBe(
      'Acid pump #4 ran (2 s): the reading did not move',
    );
    expect(entryText({ ...dose, detail: { duration: 1.5, answered: null } }, names)).toBe('Acid pump #4 ran (1.5 s)');
    expect(entryText({ ...dose, actuator_id: null, detail: {} }, names)).toBe('A pump ran');
  });

  it('says a calibration with slope, offset, verdict, who and its note', () => {
    const calibration = entry('calibration', 3, { sensor_id: 2, detail: { slope: 0.986, offset: -0.04, accepted: true, points: 2 } });
    expect(entryText(calibration, names)).toBe('pH #2 calibrated: slope 98.6 %, offset −0.04, accepted');
    expect(
      entryText(
        { ...calibration, author: 'alice', text: 'fresh buffers', detail: { slope: 0.85, offset: 0.1, accepted: false, points: 3 } },
        names,
      ),
    ).toBe('pH #2 calibrated: slope 85.0 %, offset +0.1, not accepted by alice (fresh buffers)');
  });

  it('leaves the slope out of a one-point calibration', () => {
    const one = entry('calibration', 4, { sensor_id: 2, detail: { slope: 1, offset: 0.2, accepted: true, points: 1 } });
    expect(entryText(one, names)).toBe('pH #2 calibrated: offset +0.2, accepted');
    expect(entryText({ ...one, sensor_id: null, detail: {} }, names)).toBe('A sensor calibrated');
  });

  it('says lockouts, unlocks and refills with the pump, the reason and who', () => {
    expect(entryText(entry('lockout', 1, { actuator_id: 4, text: '20 doses did not move it' }), names)).toBe(
      'Acid pump #4 locked out: 20 doses did not move it',
    );
    expect(entryText(entry('lockout', 1, { actuator_id: 4 }), names)).toBe('Acid pump #4 locked out');
    expect(entryText(entry('unlock', 2, { actuator_id: 4, author: 'alice' }), names)).toBe('Acid pump #4 unlocked by alice');
    expect(entryText(entry('unlock', 2, { actuator_id: 4 }), names)).toBe('Acid pump #4 unlocked');
    expect(entryText(entry('refill', 5, { actuator_id: 4, detail: { stock_ml: 1000 } }), names)).toBe('Acid pump #4 refilled to 1000 ml');
    expect(entryText(entry('refill', 5), names)).toBe('A pump refilled');
  });

  it('says pauses with their end, and resumes', () => {
    expect(entryText(entry('pause', 6, { detail: { until: local(25, 10) } }), names)).toMatch(/^Dosing paused until \d{1,2}:\d\d/);
    expect(entryText(entry('pause', 6, { author: 'bob', detail: { until: null } }), names)).toBe('Dosing paused by bob');
    expect(entryText(entry('resume', 7, { detail: { until: null } }), names)).toBe('Dosing resumed');
  });

  it('says a type it does not know by its text or its name', () => {
    expect(entryText(entry('harvest', 1, { text: 'Cut 2 kg' }), names)).toBe('Cut 2 kg');
    expect(entryText(entry('harvest', 1), names)).toBe('Harvest');
  });
});

describe('typeLabel and TYPE_FILTERS', () => {
  it('labels the known types and capitalises others', () => {
    expect(typeLabel('calibration')).toBe('Calibration');
    expect(typeLabel('resume')).toBe('Resume');
    expect(typeLabel('stock_low')).toBe('Stock low');
  });

  it("knows every type of the service's journal", () => {
    expect([...JOURNAL_TYPES].sort()).toEqual([...SERVICE_TYPES].sort());
  });

  it('offers every type the journal has, each once', () => {
    const offered = TYPE_FILTERS.flatMap((f) => (f.value ? f.value.split(',') : []));
    expect([...offered].sort()).toEqual([...JOURNAL_TYPES].sort());
  });
});

describe('entryKey, entryNote and noteEntry', () => {
  it('keys an entry by its type and id', () => {
    expect(entryKey(noteEntry(note(3, local(25, 9))))).toBe('note:3');
    expect(entryKey(entry('dose', 8))).toBe('dose:8');
  });

  it('reads a note entry back as a note, and nothing else as one', () => {
    const n = note(3, local(25, 9), { tags: ['filter'], author: 'alice', prototype_id: 4 });
    expect(entryNote(noteEntry(n), 4)).toEqual(n);
    expect(entryNote(entry('dose', 3))).toBeNull();
  });

  it("gives a note the service's cursor", () => {
    const n = note(3, local(25, 9));
    expect(noteEntry(n).cursor).toBe(`${Date.parse(n.at)}.note.3`);
  });
});

describe('groupByDay', () => {
  it('heads the entries by local day: today, yesterday, then dates', () => {
    const now = new Date(2025, 10, 25, 15).getTime();
    const entries: JournalEntry[] = [
      entry('dose', 4, { at: local(25, 14) }),
      entry('note', 3, { at: local(25, 1) }),
      entry('dose', 2, { at: local(24, 23) }),
      entry('dose', 1, { at: local(20, 8) }),
    ];
    const groups = groupByDay(entries, now);
    expect(groups.map((g) => [g.label === 'Today' || g.label === 'Yesterday' ? g.label : 'date', g.entries.length])).toEqual([
      ['Today', 2],
      ['Yesterday', 1],
      ['date', 1],
    ]);
    expect(groups[2].key).toBe('2025-11-20');
  });

  it('names the year of a day in another year', () => {
    const groups = groupByDay([entry('dose', 1, { at: new Date(2024, 0, 3, 12).toISOString() })], new Date(2025, 10, 25).getTime());
    expect(groups[0].label).toContain('2024');
  });
});

describe('parseTags and tagsOf', () => {
  it('splits on commas, trims and drops repeats and blanks', () => {
    expect(parseTags(' filter, water change,,filter , ')).toEqual(['filter', 'water change']);
    expect(parseTags('')).toEqual([]);
  });

  it('collects the tags of the notes, sorted', () => {
    const entries = [noteEntry(note(1, local(25, 9), { tags: ['pH', 'filter'] })), noteEntry(note(2, local(25, 8), { tags: ['filter'] }))];
    expect(tagsOf([...entries, entry('dose', 1, { at: local(25, 7) })])).toEqual(['filter', 'pH']);
  });
});

describe('canEditNote', () => {
  it('lets a session with modify change its own notes and those written in open mode', () => {
    expect(canEditNote({ author: 'alice' }, 'alice', true)).toBe(true);
    expect(canEditNote({ author: null }, null, true)).toBe(true);
    expect(canEditNote({ author: null }, 'alice', true)).toBe(true);
  });

  it("refuses another's note, and every note without modify", () => {
    expect(canEditNote({ author: 'bob' }, 'alice', true)).toBe(false);
    expect(canEditNote({ author: 'bob' }, null, true)).toBe(false);
    expect(canEditNote({ author: 'alice' }, 'alice', false)).toBe(false);
  });
});

describe('applyNoteChange', () => {
  const entries: JournalEntry[] = [
    entry('dose', 1, { at: local(25, 12) }),
    noteEntry(note(1, local(25, 10))),
    entry('dose', 2, { at: local(25, 8) }),
  ];

  it('puts a new note in its place by time', () => {
    expect(applyNoteChange(entries, note(2, local(25, 9))).map(entryKey)).toEqual(['dose:1', 'note:1', 'note:2', 'dose:2']);
    expect(applyNoteChange(entries, note(3, local(25, 13))).map(entryKey)[0]).toBe('note:3');
    expect(
      applyNoteChange(entries, note(4, local(25, 1)))
        .map(entryKey)
        .at(-1),
    ).toBe('note:4');
  });

  it('replaces a changed note, moving it when its time changed', () => {
    const next = applyNoteChange(entries, note(1, local(25, 7), { text: 'later' }));
    expect(next.map(entryKey)).toEqual(['dose:1', 'dose:2', 'note:1']);
    expect(next[2].text).toBe('later');
  });

  it('removes a deleted note, and only the note of that id', () => {
    expect(applyNoteChange(entries, { deleted: 1, prototype_id: 0 }).map(entryKey)).toEqual(['dose:1', 'dose:2']);
  });
});

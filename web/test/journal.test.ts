import { describe, expect, it } from 'vitest';
import type { JournalEntry, Note } from '../src/api/records';
import {
  applyNoteChange,
  canEditNote,
  entryKey,
  entryNote,
  entryText,
  groupByDay,
  localDateTime,
  localTime,
  noteEntry,
  parseTags,
  shortDateTime,
  tagsOf,
  typeLabel,
  zoneText,
} from '../src/domain/journal';

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
const local = (day: number, hour: number) => new Date(2025, 10, day, hour).toISOString();

describe('entryText', () => {
  it('says a note by its text', () => {
    expect(entryText(noteEntry(note(1, local(25, 9), { text: 'Changed the filter' })), names)).toBe('Changed the filter');
  });

  it('says a dose with its seconds, its volume and whether it was answered', () => {
    const dose = { type: 'dose', at: local(25, 9), actuator_id: 4, duration: 2, volume_ml: 5, answered: true };
    expect(entryText(dose, names)).toBe('Acid pump #4 ran (2 s, 5 ml): the reading moved');
    expect(entryText({ ...dose, volume_ml: null, answered: false }, names)).toBe('Acid pump #4 ran (2 s): the reading did not move');
    expect(entryText({ ...dose, answered: null }, names)).toBe('Acid pump #4 ran (2 s, 5 ml)');
  });

  it('reads the fields nested under the type name too', () => {
    const nested = { type: 'dose', at: local(25, 9), dose: { actuator_id: 4, duration: 1.5, volume_ml: null, answered: null } };
    expect(entryText(nested, names)).toBe('Acid pump #4 ran (1.5 s)');
  });

  it('says a calibration with slope, offset and verdict', () => {
    const entry = { type: 'calibration', at: local(25, 9), sensor_id: 2, slope: 0.986, offset: -0.04, accepted: true };
    expect(entryText(entry, names)).toBe('pH #2 calibrated: slope 98.6 %, offset −0.04, accepted');
    expect(entryText({ ...entry, slope: 0.85, accepted: false }, names)).toBe('pH #2 calibrated: slope 85.0 %, offset −0.04, not accepted');
  });

  it('says lockouts, unlocks and refills with the pump, the reason and who', () => {
    expect(entryText({ type: 'lockout', at: local(25, 9), actuator_id: 4, reason: '20 doses did not move it' }, names)).toBe(
      'Acid pump #4 locked out: 20 doses did not move it',
    );
    expect(entryText({ type: 'unlock', at: local(25, 9), actuator_id: 4, author: 'alice' }, names)).toBe('Acid pump #4 unlocked by alice');
    expect(entryText({ type: 'unlock', at: local(25, 9), actuator_id: 4 }, names)).toBe('Acid pump #4 unlocked');
    expect(entryText({ type: 'refill', at: local(25, 9), actuator_id: 4, stock_ml: 1000, author: null }, names)).toBe(
      'Acid pump #4 refilled to 1000 ml',
    );
    expect(entryText({ type: 'refill', at: local(25, 9) }, names)).toBe('A pump refilled');
  });

  it('says pauses with their length and end, and resumes', () => {
    const until = local(25, 10);
    const paused = entryText({ type: 'pause', at: local(25, 9), for: 3600, paused_until: until }, names);
    expect(paused).toMatch(/^Dosing paused for 1 h until \d{1,2}:\d\d/);
    expect(entryText({ type: 'pause', at: local(25, 9), for: 900 }, names)).toBe('Dosing paused for 15 min');
    expect(entryText({ type: 'pause', at: local(25, 9), paused_until: null }, names)).toBe('Dosing resumed');
    expect(entryText({ type: 'pause', at: local(25, 9), action: 'resume', paused_until: until }, names)).toBe('Dosing resumed');
  });

  it('says a type it does not know by its text, reason or name', () => {
    expect(entryText({ type: 'harvest', at: local(25, 9), text: 'Cut 2 kg' }, names)).toBe('Cut 2 kg');
    expect(entryText({ type: 'harvest', at: local(25, 9) }, names)).toBe('Harvest');
  });
});

describe('typeLabel', () => {
  it('labels the known types and capitalises others', () => {
    expect(typeLabel('calibration')).toBe('Calibration');
    expect(typeLabel('stock_low')).toBe('Stock low');
  });
});

describe('entryKey and entryNote', () => {
  it('keys an entry by its type and id', () => {
    expect(entryKey(noteEntry(note(3, local(25, 9))))).toBe('note:3');
    expect(entryKey({ type: 'dose', at: local(25, 9), activation_id: 8 })).toBe('dose:8');
    expect(entryKey({ type: 'pause', at: local(25, 9) })).toBe(`pause:${local(25, 9)}`);
  });

  it('reads a note entry back as a note, and nothing else as one', () => {
    const n = note(3, local(25, 9), { tags: ['filter'], author: 'alice' });
    expect(entryNote(noteEntry(n))).toEqual(n);
    expect(entryNote({ type: 'note', at: n.at, note: n })).toEqual(n);
    expect(entryNote({ type: 'dose', at: n.at, note_id: 3 })).toBeNull();
    expect(entryNote({ type: 'note', at: n.at })).toBeNull();
  });
});

describe('groupByDay', () => {
  it('heads the entries by local day: today, yesterday, then dates', () => {
    const now = new Date(2025, 10, 25, 15).getTime();
    const entries: JournalEntry[] = [
      { type: 'dose', at: local(25, 14) },
      { type: 'note', at: local(25, 1) },
      { type: 'dose', at: local(24, 23) },
      { type: 'dose', at: local(20, 8) },
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
    const groups = groupByDay([{ type: 'dose', at: new Date(2024, 0, 3, 12).toISOString() }], new Date(2025, 10, 25).getTime());
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
    expect(tagsOf([...entries, { type: 'dose', at: local(25, 7) }])).toEqual(['filter', 'pH']);
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

describe('zoneText', () => {
  it('names the zone and its offset', () => {
    const text = zoneText(Date.parse('2025-11-25T12:00:00Z'), 'Europe/Berlin');
    expect(text).toMatch(/^Europe\/Berlin \(UTC[+−]\d\d:\d\d\)$/);
  });

  it('says only the offset for UTC', () => {
    expect(zoneText(Date.now(), 'UTC')).toMatch(/^UTC[+−]\d\d:\d\d$/);
  });
});

describe('applyNoteChange', () => {
  const entries: JournalEntry[] = [
    { type: 'dose', at: local(25, 12), activation_id: 1 },
    noteEntry(note(1, local(25, 10))),
    { type: 'dose', at: local(25, 8), activation_id: 2 },
  ];

  it('puts a new note in its place by time', () => {
    const next = applyNoteChange(entries, { event: 'created', note: note(2, local(25, 9)) });
    expect(next.map(entryKey)).toEqual(['dose:1', 'note:1', 'note:2', 'dose:2']);
    expect(applyNoteChange(entries, note(3, local(25, 13))).map(entryKey)[0]).toBe('note:3');
    expect(
      applyNoteChange(entries, note(4, local(25, 1)))
        .map(entryKey)
        .at(-1),
    ).toBe('note:4');
  });

  it('replaces a changed note, moving it when its time changed', () => {
    const next = applyNoteChange(entries, { event: 'updated', note: note(1, local(25, 7), { text: 'later' }) });
    expect(next.map(entryKey)).toEqual(['dose:1', 'dose:2', 'note:1']);
    expect(entryNote(next[2])?.text).toBe('later');
  });

  it('removes a deleted note, in either shape of the event', () => {
    expect(applyNoteChange(entries, { deleted: 1 }).map(entryKey)).toEqual(['dose:1', 'dose:2']);
    expect(applyNoteChange(entries, { event: 'deleted', note: note(1, local(25, 10)) }).map(entryKey)).toEqual(['dose:1', 'dose:2']);
  });
});

describe('localTime, shortDateTime and localDateTime', () => {
  const at = new Date(2025, 10, 25, 14, 5).toISOString();
  it('write the local time, with the day where days meet', () => {
    expect(localTime(at)).toMatch(/\b(14:05|0?2:05)\b/);
    expect(shortDateTime(at)).toMatch(/25/);
    expect(shortDateTime(at)).toMatch(/\b(14:05|0?2:05)\b/);
    expect(localDateTime(at)).toMatch(/2025/);
  });
});

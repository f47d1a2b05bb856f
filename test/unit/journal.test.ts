import { describe, expect, it } from 'vitest';
import type { RecordPage } from '../../src/domain/journal-page.js';
import { journalColumns, journalCsv, journalLine, spreadsheetText } from '../../src/records/journal-csv.js';
import {
  JOURNAL_SOURCES,
  JOURNAL_TYPES,
  type JournalRecord,
  type JournalSource,
  type JournalStore,
} from '../../src/records/journal-sources.js';
import { cursorText, parseCursor, readJournal } from '../../src/records/journal.js';

/** A source of made-up records of one type, reading its page as a store would (window, keyset, newest first, limit). */
function fakeSource(type: string, records: [at: number, id: number][], options: { tagged?: boolean; detailKeys?: string[] } = {}) {
  const asked: RecordPage[] = [];
  const source: JournalSource = {
    types: [type],
    detailKeys: options.detailKeys ?? [],
    tagged: options.tagged ?? false,
    async read(_store, _prototypeId, _filter, page) {
      asked.push(page);
      const { window, before, limit } = page;
      return records
        .filter(([at]) => (window.start === undefined || at >= window.start) && (window.end === undefined || at < window.end))
        .filter(([at, id]) => before === undefined || at < before.at || (at === before.at && id < before.id))
        .sort((a, b) => b[0] - a[0] || b[1] - a[1])
        .slice(0, limit)
        .map(([at, id]) => ({ type, at, id, sensor_id: null, actuator_id: null, author: null, text: null, tags: [], detail: {} }));
    },
  };
  return { source, asked };
}

const store = {} as JournalStore;
const all = (sources: JournalSource[]) => ({ types: new Set(sources.flatMap((s) => s.types)) });
const keys = (records: JournalRecord[]) => records.map((r) => `${r.type}${r.id}@${r.at}`);

describe('the journal: sources merged (docs/api.md §15)', () => {
  const notes = fakeSource(
    'note',
    [
      [10, 1],
      [30, 2],
      [20, 3],
      [30, 4],
    ],
    { tagged: true },
  );
  const doses = fakeSource('dose', [
    [30, 1],
    [15, 2],
    [40, 3],
  ]);
  const refills = fakeSource(
    'refill',
    [
      [30, 7],
      [5, 8],
    ],
    { detailKeys: ['stock_ml'] },
  );
  const sources = [notes.source, doses.source, refills.source];

  it('merges newest first; at one instant the later source first, then the larger id', async () => {
    const page = await readJournal(sources, store, 0, { window: { endInclusive: false }, filter: all(sources), limit: 100 });
    expect(keys(page)).toEqual([
      'dose3@40',
      'refill7@30',
      'dose1@30',
      'note4@30',
      'note2@30',
      'note3@20',
      'dose2@15',
      'note1@10',
      'refill8@5',
    ]);
  });

  it('pages by the cursor of the last entry, without losing or repeating an entry at a shared instant', async () => {
    const everything = await readJournal(sources, store, 0, { window: { endInclusive: false }, filter: all(sources), limit: 100 });
    for (const limit of [1, 2, 3, 4]) {
      const seen: JournalRecord[] = [];
      let before: ReturnType<typeof parseCursor>;
      for (;;) {
        const page = await readJournal(sources, store, 0, { window: { endInclusive: false }, filter: all(sources), before, limit });
        seen.push(...page);
        if (page.length < limit) break;
        before = parseCursor(cursorText(page[page.length - 1]), ['note', 'dose', 'refill']);
      }
      expect(keys(seen), `pages of ${limit}`).toEqual(keys(everything));
    }
  });

  it('asks each source for at most the limit, in the window, and only the sources of the wanted types', async () => {
    notes.asked.length = doses.asked.length = refills.asked.length = 0;
    const window = { start: 12, end: 35, endInclusive: false };
    const page = await readJournal(sources, store, 0, { window, filter: { types: new Set(['note', 'refill']) }, limit: 2 });
    expect(keys(page)).toEqual(['refill7@30', 'note4@30']);
    expect(doses.asked).toEqual([]);
    expect(notes.asked).toEqual([{ window, before: undefined, limit: 2 }]);
  });

  it('with a tag, only the sources whose entries carry tags', async () => {
    notes.asked.length = doses.asked.length = 0;
    const page = await readJournal(sources, store, 0, {
      window: { endInclusive: false },
      filter: { ...all(sources), tag: 'ph' },
      limit: 100,
    });
    expect(page.every((r) => r.type === 'note')).toBe(true);
    expect(doses.asked).toEqual([]);
  });

  it('a cursor is `<ms>.<type>.<id>` of a known type', () => {
    expect(cursorText({ at: 1_795_000_000_000, type: 'dose', id: 17 })).toBe('1795000000000.dose.17');
    expect(parseCursor('1795000000000.dose.17', JOURNAL_TYPES)).toEqual({ at: 1_795_000_000_000, type: 'dose', id: 17 });
    expect(parseCursor('-5.note.0', JOURNAL_TYPES)).toEqual({ at: -5, type: 'note', id: 0 });
    expect(parseCursor('1795000000000.refills.17', JOURNAL_TYPES)).toBeUndefined();
    expect(parseCursor('1795000000000.dose', JOURNAL_TYPES)).toBeUndefined();
    expect(parseCursor('x.dose.1', JOURNAL_TYPES)).toBeUndefined();
  });

  it('the service’s sources, in their order, with the types each yields', () => {
    expect(JOURNAL_TYPES).toEqual(['note', 'dose', 'refill', 'calibration', 'lockout', 'unlock', 'pause', 'resume', 'settings', 'hold']);
    expect(JOURNAL_SOURCES.filter((s) => s.tagged).flatMap((s) => s.types)).toEqual(['note']);
  });
});

describe('the journal as CSV', () => {
  const record = (fields: Partial<JournalRecord>): JournalRecord => ({
    type: 'note',
    at: Date.UTC(2026, 10, 22, 9, 30),
    id: 1,
    sensor_id: null,
    actuator_id: null,
    author: null,
    text: null,
    tags: [],
    detail: {},
    ...fields,
  });

  it('has the common columns, then every source’s detail keys once, in the sources’ order', () => {
    expect(journalColumns(JOURNAL_SOURCES)).toEqual([
      'type',
      'at',
      'id',
      'sensor_id',
      'actuator_id',
      'author',
      'text',
      'tags',
      'duration',
      'volume_ml',
      'value_before',
      'answered',
      'stock_ml',
      'slope',
      'offset',
      'accepted',
      'points',
      'until',
    ]);
    const a = fakeSource('a', [], { detailKeys: ['x', 'y'] }).source;
    const b = fakeSource('b', [], { detailKeys: ['y', 'z'] }).source;
    expect(journalColumns([a, b]).slice(8)).toEqual(['x', 'y', 'z']);
  });

  it('writes a line per entry: RFC 4180 quoting, empty fields for null and for details of other types', () => {
    const columns = ['type', 'at', 'id', 'sensor_id', 'actuator_id', 'author', 'text', 'tags', 'duration', 'answered'];
    expect(journalLine(record({ text: 'pH "down", then\nwait', tags: ['ph', 'water change'], author: 'ana' }), columns)).toBe(
      'note,2026-11-22T09:30:00.000Z,1,,,ana,"pH ""down"", then\nwait",ph; water change,,\r\n',
    );
    expect(
      journalLine(record({ type: 'dose', id: 9, sensor_id: 2, actuator_id: 3, detail: { duration: 2.5, answered: false } }), columns),
    ).toBe('dose,2026-11-22T09:30:00.000Z,9,2,3,,,,2.5,false\r\n');
  });

  it('prefixes free text that a spreadsheet would take for a formula with a quote', () => {
    const columns = ['type', 'at', 'id', 'sensor_id', 'actuator_id', 'author', 'text', 'tags'];
    expect(journalLine(record({ text: '=HYPERLINK("http://x")', tags: ['+1', 'ok', '@home'], author: '-ana' }), columns)).toBe(
      `note,2026-11-22T09:30:00.000Z,1,,,'-ana,"'=HYPERLINK(""http://x"")",'+1; ok; '@home\r\n`,
    );
    expect(spreadsheetText('-0.2 pH')).toBe("'-0.2 pH");
    expect(spreadsheetText('\tx')).toBe("'\tx");
    expect(spreadsheetText('\rx')).toBe("'\rx");
    expect(spreadsheetText('pH -0.2')).toBe('pH -0.2');
  });

  it.each([';', ',', '\t', '|'])('guards a formula after the separator %j, spaces after it too', (separator) => {
    expect(spreadsheetText(`x${separator}=1+2${separator}`)).toBe(`x${separator}'=1+2${separator}`);
    expect(spreadsheetText(`x${separator}  @SUM(A1)`)).toBe(`x${separator}  '@SUM(A1)`);
    expect(spreadsheetText(`=a${separator}+b${separator}-c`)).toBe(`'=a${separator}'+b${separator}'-c`);
    expect(spreadsheetText(`pH 6${separator} fine`)).toBe(`pH 6${separator} fine`);
  });

  it('streams the header, then each page as it is read', async () => {
    const source = fakeSource('note', []).source;
    async function* pages() {
      yield [record({ id: 2 })];
      yield [];
      yield [record({ id: 1 })];
    }
    const chunks: string[] = [];
    for await (const chunk of journalCsv([source], pages())) chunks.push(chunk);
    expect(chunks).toEqual([
      'type,at,id,sensor_id,actuator_id,author,text,tags\r\n',
      'note,2026-11-22T09:30:00.000Z,2,,,,,\r\n',
      'note,2026-11-22T09:30:00.000Z,1,,,,,\r\n',
    ]);
  });
});

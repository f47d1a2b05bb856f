import { InvalidInput, NotFound } from '../core/errors.js';
import type { ServiceDeps } from '../core/service-deps.js';
import { windowOf } from '../core/window.js';
import { type JournalCursor, type JournalPageQuery, parseCursor, readJournal } from './journal.js';
import { journalCsv } from './journal-csv.js';
import { DEFAULT_JOURNAL_TYPES, JOURNAL_SOURCES, JOURNAL_TYPES, type JournalRecord } from './journal-sources.js';
import type { JournalCsvQuery, JournalQuery } from './schemas.js';

/** How many entries a page of the CSV export reads at a time. */
const CSV_PAGE = 1000;

/** `note,dose` → the set, or a 422 naming the first type the journal does not have. */
function typesOf(list: string | undefined): Set<string> {
  if (list === undefined) return new Set(DEFAULT_JOURNAL_TYPES);
  const types = new Set<string>();
  for (const name of list.split(',').map((n) => n.trim())) {
    if (name === '') continue;
    if (!JOURNAL_TYPES.includes(name)) {
      throw new InvalidInput({
        loc: ['query', 'type'],
        msg: `Unknown journal entry type "${name}" (known: ${JOURNAL_TYPES.join(', ')})`,
        type: 'enum',
      });
    }
    types.add(name);
  }
  return types;
}

function cursorOf(text: string | undefined): JournalCursor | undefined {
  if (text === undefined) return undefined;
  const cursor = parseCursor(text, JOURNAL_TYPES);
  if (!cursor) throw new InvalidInput({ loc: ['query', 'before'], msg: 'Not the cursor of a journal entry', type: 'value_error' });
  return cursor;
}

/**
 * A prototype's journal (docs/api.md §15): its notes merged with the doses, calibrations, lockouts,
 * unlocks, pauses and resumes recorded for it, newest first (see journal-sources.ts), as JSON
 * pages or as one CSV file.
 */
export function journalService({ store, now }: ServiceDeps) {
  async function query(prototypeId: number, q: JournalCsvQuery): Promise<Omit<JournalPageQuery, 'limit'>> {
    const window = windowOf({ start_time: q.start_time, end_time: q.end_time }, now());
    const filter = { types: typesOf(q.type), tag: q.tag };
    const before = cursorOf(q.before);
    if (!(await store.prototypes.exists(prototypeId))) throw new NotFound(`Prototype ${prototypeId} not found`);
    return { window, filter, before };
  }

  return {
    async page(prototypeId: number, q: JournalQuery): Promise<JournalRecord[]> {
      return readJournal(JOURNAL_SOURCES, store, prototypeId, { ...(await query(prototypeId, q)), limit: q.limit ?? 100 });
    },

    /** The whole journal the query selects (at most `limit` entries when given), as CSV text read page by page. */
    async csv(prototypeId: number, q: JournalCsvQuery): Promise<AsyncGenerator<string>> {
      const first = await query(prototypeId, q);
      async function* pages(): AsyncGenerator<JournalRecord[]> {
        let left = q.limit ?? Infinity;
        let before = first.before;
        while (left > 0) {
          const limit = Math.min(CSV_PAGE, left);
          const page = await readJournal(JOURNAL_SOURCES, store, prototypeId, { ...first, before, limit });
          yield page;
          if (page.length < limit) return;
          left -= page.length;
          const last = page[page.length - 1];
          before = { at: last.at, type: last.type, id: last.id };
        }
      }
      return journalCsv(JOURNAL_SOURCES, pages());
    },
  };
}

export type JournalService = ReturnType<typeof journalService>;

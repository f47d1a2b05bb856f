import type { RecordPage } from '../domain/journal-page.js';
import type { TimeWindow } from '../domain/time-window.js';
import type { JournalFilter, JournalRecord, JournalSource, JournalStore } from './journal-sources.js';

/** Where a page of the journal continues from: the entry it comes after. */
export interface JournalCursor {
  at: number;
  type: string;
  id: number;
}

/** An entry's cursor as text: `<epoch ms>.<type>.<id>`. */
export const cursorText = (r: Pick<JournalRecord, 'at' | 'type' | 'id'>): string => `${r.at}.${r.type}.${r.id}`;

const CURSOR = /^(-?\d{1,15})\.([a-z_]{1,32})\.(\d{1,10})$/;

/** The cursor a client passed back, or undefined when it is not one of ours (a type the journal does not have). */
export function parseCursor(text: string, types: readonly string[]): JournalCursor | undefined {
  const match = CURSOR.exec(text);
  if (!match || !types.includes(match[2])) return undefined;
  return { at: Number(match[1]), type: match[2], id: Number(match[3]) };
}

/**
 * What a source of rank `rank` reads after the cursor, entries being ordered newest first, then
 * by source (the higher rank first), then by id (the larger first): the same instant and a lower
 * rank all come after it; the same instant and a higher rank none; its own rank, the smaller ids.
 * Times are whole milliseconds, so "at or before t" is "before t + 1".
 */
function keysetFor(rank: number, cursorRank: number, cursor: JournalCursor): RecordPage['before'] {
  if (rank < cursorRank) return { at: cursor.at + 1, id: 0 };
  if (rank > cursorRank) return { at: cursor.at, id: 0 };
  return { at: cursor.at, id: cursor.id };
}

export interface JournalPageQuery {
  window: TimeWindow;
  filter: JournalFilter;
  before?: JournalCursor;
  limit: number;
}

/**
 * One page of a prototype's journal: each source that yields a wanted type reads its own page
 * after the cursor, and the pages are merged newest first (ties: the later source in the list,
 * then the larger id), cut at the limit. Each source reads at most the limit, so the merge is
 * exact.
 */
export async function readJournal(
  sources: readonly JournalSource[],
  store: JournalStore,
  prototypeId: number,
  { window, filter, before, limit }: JournalPageQuery,
): Promise<JournalRecord[]> {
  const rankOfType = new Map(sources.flatMap((s, rank) => s.types.map((t) => [t, rank] as const)));
  const cursorRank = before === undefined ? undefined : rankOfType.get(before.type);
  const pages = await Promise.all(
    sources.map(async (source, rank) => {
      if (!source.types.some((t) => filter.types.has(t)) || (filter.tag !== undefined && !source.tagged)) return [];
      const keyset = before === undefined || cursorRank === undefined ? undefined : keysetFor(rank, cursorRank, before);
      const rows = await source.read(store, prototypeId, filter, { window, before: keyset, limit });
      return rows.filter((r) => filter.types.has(r.type)).map((record) => ({ record, rank }));
    }),
  );
  return pages
    .flat()
    .sort((a, b) => b.record.at - a.record.at || b.rank - a.rank || b.record.id - a.record.id)
    .slice(0, limit)
    .map((e) => e.record);
}

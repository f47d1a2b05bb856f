import type { SelectQueryBuilder } from 'kysely';
import type { RecordPage } from '../../domain/journal-page.js';
import type { Database } from '../database.js';
import type { Dialect } from '../dialect.js';

/**
 * One page of a prototype's records of one kind (see `RecordPage`), over the query that selects
 * them: in the window by their time column, after the keyset, newest first (ties: the larger id
 * first), at most the limit.
 */
export function paged<TB extends keyof Database, O>(
  query: SelectQueryBuilder<Database, TB, O>,
  columns: { at: string; id: string },
  page: RecordPage,
  dialect: Dialect,
): SelectQueryBuilder<Database, TB, O> {
  // The query builder cannot type a column named at run time; these are the callers' own columns.
  const at = columns.at as never;
  const id = columns.id as never;
  const { window, before } = page;
  let q = query;
  if (window.start !== undefined) q = q.where(at, '>=', dialect.at(window.start) as never);
  if (window.end !== undefined) q = q.where(at, window.endInclusive ? '<=' : '<', dialect.at(window.end) as never);
  if (before !== undefined) {
    const edge = dialect.at(before.at) as never;
    q = q.where((eb) => eb.or([eb(at, '<', edge), eb.and([eb(at, '=', edge), eb(id, '<', before.id as never)])]));
  }
  return q.orderBy(at, 'desc').orderBy(id, 'desc').limit(page.limit);
}

import type { Kysely } from 'kysely';
import type pg from 'pg';
import type { Database } from './database.js';
import type { Dialect } from './dialect.js';
import type { Store } from './store.js';

/** What a store runs on, which its public face does not show: for src/store itself (the copy) and for tests. */
export interface StoreInsides {
  db: Kysely<Database>;
  dialect: Dialect;
  /** PostgreSQL: the pool, for what goes past the query builder (COPY). */
  pool?: pg.Pool;
}

const insides = new WeakMap<Store, StoreInsides>();

/** Records what `store` runs on; answers the store. */
export function withInsides<S extends Store>(store: S, inside: StoreInsides): S {
  insides.set(store, inside);
  return store;
}

/** The query builder and the dialect of a store `openStore` opened. */
export function insidesOf(store: Store): StoreInsides {
  const inside = insides.get(store);
  if (!inside) throw new Error('not a store opened by openStore');
  return inside;
}

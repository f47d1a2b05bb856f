import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database } from './database.js';
import type { Dialect, StoreKind } from './dialect.js';

/** Stands for the caller's argument at `index` while the query is built, and is found again among the compiled parameters. */
class Placeholder {
  constructor(readonly index: number) {}
}

/**
 * A query the query builder builds and compiles once per store kind, then runs with each call's
 * values bound in place of the placeholders `build` was given. For the few queries run at every
 * reading (an alert evaluation of a sensor out of range): building and compiling them each time
 * allocated more than running them, and on a small heap that garbage is what grows the process.
 *
 * Each argument must reach the SQL as a bound value, unchanged (a `where`, `set` or `values`
 * operand): one transformed first (`dialect.time(ms)`) or expanded (`in` a list) cannot be a
 * placeholder, and compiling refuses a query that lost one.
 */
export function reusableQuery<A extends unknown[], R>(build: (db: Kysely<Database>, dialect: Dialect, ...args: A) => Compilable<R>) {
  const compiled = new Map<StoreKind, CompiledQuery<R>>();

  function compile(db: Kysely<Database>, dialect: Dialect, arity: number): CompiledQuery<R> {
    const placeholders = Array.from({ length: arity }, (_, i) => new Placeholder(i)) as unknown as A;
    const query = build(db, dialect, ...placeholders).compile();
    for (let i = 0; i < arity; i++) {
      if (!query.parameters.some((p) => p instanceof Placeholder && p.index === i)) {
        throw new Error(`reusableQuery: argument ${i} is not a bound value of the compiled query (${query.sql})`);
      }
    }
    compiled.set(dialect.kind, query);
    return query;
  }

  return async (db: Kysely<Database>, dialect: Dialect, ...args: A): Promise<R[]> => {
    const query = compiled.get(dialect.kind) ?? compile(db, dialect, args.length);
    const parameters = query.parameters.map((p) => (p instanceof Placeholder ? args[p.index] : p));
    return (await db.executeQuery<R>({ ...query, parameters })).rows;
  };
}

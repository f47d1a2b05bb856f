import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../database.js';

/** How long a lease holds without renewal; an instance that died frees its work after this. */
export const LEASE_MS = 60_000;

/**
 * Work that one instance does for all: a row of `leases` (migration 072) names it, its holder and
 * until when it holds. Taking it is one statement that succeeds only where the lease is free or
 * ran out, so instances never both hold it; it is renewed while the work runs and given back
 * after. No session state: it works through PgBouncer's transaction mode, where a session
 * advisory lock would be held by whichever server connection ran it.
 */
export function leases(db: Kysely<Database>, leaseMs = LEASE_MS) {
  const untyped = db as unknown as Kysely<Record<string, never>>;
  const interval = sql`${String(leaseMs)}::int * interval '1 millisecond'`;

  async function take(name: string, holder: string): Promise<boolean> {
    const { rows } = await sql<{
      holder: string;
    }>`insert into leases (name, holder, expires_at) values (${name}, ${holder}, now() + ${interval})
      on conflict (name) do update set holder = excluded.holder, expires_at = excluded.expires_at
      where leases.expires_at < now()
      returning holder`.execute(untyped);
    return rows.length > 0;
  }

  return {
    /** Runs `work` holding the lease `name`, or answers undefined when another holder has it. */
    async exclusively<T>(name: string, work: () => Promise<T>): Promise<T | undefined> {
      const holder = randomUUID();
      if (!(await take(name, holder))) return undefined;
      const renewal = setInterval(() => {
        void sql`update leases set expires_at = now() + ${interval} where name = ${name} and holder = ${holder}`
          .execute(untyped)
          .catch(() => {});
      }, leaseMs / 3);
      renewal.unref();
      try {
        return await work();
      } finally {
        clearInterval(renewal);
        await sql`delete from leases where name = ${name} and holder = ${holder}`.execute(untyped).catch(() => {});
      }
    },
  };
}

import type pg from 'pg';

/** The first key of the service's advisory locks for background work; the name gives the second. */
const JOB_LOCKS = 0x5e_2508;

/**
 * Runs `work` on one instance at a time: a session advisory lock taken without waiting, on a
 * connection held for the duration. An instance that finds it taken skips the work (undefined).
 * If the holder dies, PostgreSQL releases the lock with its session.
 */
export async function exclusively<T>(pool: pg.Pool, name: string, work: () => Promise<T>): Promise<T | undefined> {
  const holder = await pool.connect();
  try {
    const { rows } = await holder.query<{ locked: boolean }>('select pg_try_advisory_lock($1, hashtext($2)) as locked', [JOB_LOCKS, name]);
    if (!rows[0]?.locked) return undefined;
    try {
      return await work();
    } finally {
      await holder.query('select pg_advisory_unlock($1, hashtext($2))', [JOB_LOCKS, name]).catch(() => {});
    }
  } finally {
    holder.release();
  }
}

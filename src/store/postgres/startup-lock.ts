import type pg from 'pg';

/** Any number: it only has to be the same for every process of this service. */
const STARTUP_LOCK = 0x5e_2507;

/**
 * Several processes may start on one database at the same moment: a session advisory lock, held
 * on a connection of its own, makes their migrations and default data take turns, so the second
 * finds the schema migrated and the defaults in place.
 */
export async function underStartupLock(pool: pg.Pool, work: () => Promise<void>): Promise<void> {
  const lockHolder = await pool.connect();
  try {
    await lockHolder.query('select pg_advisory_lock($1)', [STARTUP_LOCK]);
    await work();
  } finally {
    await lockHolder.query('select pg_advisory_unlock($1)', [STARTUP_LOCK]).catch(() => {});
    lockHolder.release();
  }
}

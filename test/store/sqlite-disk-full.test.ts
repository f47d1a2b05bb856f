import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isDiskFull } from '../../src/store/errors.js';
import { openStore, type Store } from '../../src/store/index.js';
import { sqliteGroupCommit } from '../../src/store/sqlite/group-commit.js';
import { dbOf } from '../helpers/stores.js';
import { mountSmallDisk, type SmallDisk } from '../helpers/small-disk.js';

/**
 * A SQLite store on a small disk of its own, filled, with a page cache so small that a large
 * write spills to the disk in the middle of its transaction: SQLite then rolls the whole
 * transaction back on its own. Every request of the failed commit is told the disk is full (not
 * a bookkeeping error), nothing of it is written, and the next commit works once space is back.
 */
describe('SQLite writes failing for a full disk in the middle of a transaction', () => {
  let disk: SmallDisk;
  let store: Store;
  let sqlite: SQLite.Database;
  beforeAll(() => {
    disk = mountSmallDisk(4);
  });
  afterAll(() => disk?.remove());
  beforeEach(async () => {
    store = await openStore(`sqlite:${join(disk.dir, 'store.db')}`);
    sqlite = new SQLite(join(disk.dir, 'store.db'));
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('cache_size = 8');
  });
  afterEach(async () => {
    disk.free();
    sqlite?.close();
    await store?.close();
    disk.remove();
    disk = mountSmallDisk(4);
  });

  const count = () => (sqlite.prepare('select count(*) as n from measurements').get() as { n: number }).n;
  const rows = (n: number, from = 0) =>
    Array.from({ length: n }, (_, i) => ({ sensor_id: 1 + (i % 3), value: from + i, timestamp: 10 + from + i }));

  it('rejects every request of a group commit with the disk-full error, and commits again once space is freed', async () => {
    const group = sqliteGroupCommit(sqlite);
    await group.insert(rows(1));
    disk.fill();
    const results = await Promise.allSettled([group.insert(rows(20_000, 100)), group.insert(rows(1, 50)), group.insert(rows(2, 60))]);
    for (const result of results) {
      expect(result.status).toBe('rejected');
      expect(isDiskFull((result as PromiseRejectedResult).reason), String((result as PromiseRejectedResult).reason)).toBe(true);
    }
    expect(sqlite.inTransaction).toBe(false);
    expect(count()).toBe(1);
    disk.free();
    await expect(group.insert(rows(3, 70))).resolves.toHaveLength(3);
    expect(count()).toBe(4);
    expect(sqlite.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }]);
  });

  it('keeps writing after a WAL checkpoint failed for the full disk', async () => {
    const group = sqliteGroupCommit(sqlite);
    // Pages in the WAL that the checkpoint must copy into a file that cannot grow.
    await group.insert(rows(3_000));
    disk.fill();
    let checkpoint: unknown;
    try {
      sqlite.pragma('wal_checkpoint(TRUNCATE)');
    } catch (error) {
      checkpoint = error;
    }
    expect(isDiskFull(checkpoint), String(checkpoint)).toBe(true);
    disk.free();
    await expect(group.insert(rows(2, 5_000))).resolves.toHaveLength(2);
    expect(count()).toBe(3_002);
    expect(sqlite.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }]);
  });

  it("answers the query builder's transaction with the disk-full error, not its failed rollback", { timeout: 60_000 }, async () => {
    await sql`pragma cache_size = 8`.execute(dbOf(store));
    disk.fill();
    // As `store.transaction` runs: the query builder's transaction on the writing connection.
    const failure = await dbOf(store)
      .transaction()
      .execute(async (trx) => {
        for (let i = 0; i < 5_000; i++) {
          await sql`insert into measurements (sensor_id, value, timestamp) values (${1}, ${i}, ${i})`.execute(trx);
        }
      })
      .catch((error: unknown) => error);
    expect(isDiskFull(failure), String(failure)).toBe(true);
    expect(count()).toBe(0);
    disk.free();
    await dbOf(store)
      .transaction()
      .execute(async (trx) => {
        await sql`insert into measurements (sensor_id, value, timestamp) values (${1}, ${1}, ${1})`.execute(trx);
      });
    expect(count()).toBe(1);
  });
});

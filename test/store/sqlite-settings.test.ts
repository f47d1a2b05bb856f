import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { scratchDatabase, dbOf } from '../helpers/stores.js';

describe('SQLite durability settings', () => {
  it.each([
    [undefined, 1, 'the default is synchronous=NORMAL in WAL mode'],
    ['full' as const, 2, 'SQLITE_SYNCHRONOUS=full syncs at every commit'],
  ])('%s → synchronous %d (%s)', async (setting, expected, _why) => {
    const database = await scratchDatabase('sqlite');
    const store = await openStore(database.url, { sqliteSynchronous: setting });
    try {
      const sync = await sql<{ synchronous: number }>`pragma synchronous`.execute(dbOf(store));
      expect(sync.rows[0].synchronous).toBe(expected);
      const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(dbOf(store));
      expect(mode.rows[0].journal_mode).toBe('wal');
    } finally {
      await store.close();
      await database.drop();
    }
  });
});

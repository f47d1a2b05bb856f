import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite, PAGE_CACHE_SIZE } from '../../src/store/sqlite/connection.js';
import { type ScratchDatabase, scratchDatabase } from '../helpers/stores.js';

// A small board keeps what the page cache holds: SQLite's own 2 MB, not better-sqlite3's 16 MB.
describe('the SQLite page cache', () => {
  let database: ScratchDatabase;
  beforeEach(async () => {
    database = await scratchDatabase('sqlite');
  });
  afterEach(async () => {
    await database.drop();
  });

  it('is 2 MB per connection', () => {
    expect(PAGE_CACHE_SIZE).toBe(-2000);
    const connection = openSqlite(database.url);
    try {
      expect(connection.sqlite.pragma('cache_size', { simple: true })).toBe(-2000);
    } finally {
      connection.sqlite.close();
    }
  });
});

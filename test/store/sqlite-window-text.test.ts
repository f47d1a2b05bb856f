import SQLite from 'better-sqlite3';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { measurementJson } from '../../src/core/json-text.js';
import type { TimeWindow } from '../../src/domain/time-window.js';
import { openStore, type Store } from '../../src/store/index.js';
import { MAX_WINDOW_ROWS } from '../../src/store/sqlite/window-text.js';
import { dbOf, type ScratchDatabase, scratchDatabase } from '../helpers/stores.js';

/**
 * A window's JSON text is kept from the last read of its sensor on SQLite; these tests change the
 * rows every way they can change and check that the text answered is always the one the rows,
 * read page by page, make.
 */
describe('SQLite window text', () => {
  let database: ScratchDatabase;
  let store: Store;
  /** Another connection to the same file: what another program (the sqlite3 tool) would do. */
  let other: SQLite.Database;
  beforeEach(async () => {
    database = await scratchDatabase('sqlite');
    store = await openStore(database.url);
    other = new SQLite(database.url.replace(/^sqlite:/, ''));
  });
  afterEach(async () => {
    other.close();
    await store.close();
    await database.drop();
  });

  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
  const texts = () => store.windowText!;
  /** The window as the streamed path writes it, from the rows page by page. */
  async function fromPages(sensorId: number, window: TimeWindow): Promise<string> {
    const parts: string[] = [];
    for await (const page of store.measurements.walkWindow(sensorId, window)) for (const row of page) parts.push(measurementJson(row));
    return `[${parts.join(',')}]`;
  }
  const between = (start: number, end: number, endInclusive = true): TimeWindow => ({ start, end, endInclusive });

  it('answers a window read again from what the last read kept, the same text the rows make', async () => {
    await store.ingest([100, 200, 200, 300, 400].map((timestamp, i) => ({ sensor_id: 1, value: i + 0.1, timestamp })));
    const window = between(150, 300);
    expect(texts().cached(1, window)).toBeUndefined();
    const read = texts().read(1, window);
    expect(read).toBe(await fromPages(1, window));
    expect(JSON.parse(read!)).toHaveLength(3);
    expect(texts().cached(1, window)).toBe(read);
    // A window inside what was read, its end moved on but before the next row (400): a slice.
    expect(texts().cached(1, between(200, 399))).toBe(await fromPages(1, between(200, 399)));
    expect(texts().cached(1, between(301, 399))).toBe('[]');
  });

  it('never answers past the first row after what was read, nor before its start', async () => {
    await store.ingest([100, 200, 300].map((timestamp) => ({ sensor_id: 1, value: 1, timestamp })));
    texts().read(1, between(100, 150));
    // The row at 200 was not read: a window reaching it is read again.
    expect(texts().cached(1, between(100, 200))).toBeUndefined();
    expect(texts().cached(1, between(100, 200, false))).toBe(await fromPages(1, between(100, 200, false)));
    expect(texts().cached(1, between(99, 150))).toBeUndefined();
    // An exclusive end at a row: that row is the bound, an inclusive end there is not covered.
    texts().read(1, between(100, 300, false));
    expect(texts().cached(1, between(100, 300))).toBeUndefined();
    expect(texts().cached(1, between(100, 299))).toBe(await fromPages(1, between(100, 299)));
  });

  it('forgets a sensor this process ingests into, and only that sensor', async () => {
    await store.ingest([
      { sensor_id: 1, value: 1, timestamp: 100 },
      { sensor_id: 2, value: 2, timestamp: 100 },
    ]);
    texts().read(1, between(0, 1000));
    texts().read(2, between(0, 1000));
    await store.ingest([{ sensor_id: 1, value: 3, timestamp: 500 }]);
    expect(texts().cached(1, between(0, 1000))).toBeUndefined();
    expect(texts().cached(2, between(0, 1000))).toBe(await fromPages(2, between(0, 1000)));
    expect(JSON.parse(texts().read(1, between(0, 1000))!)).toHaveLength(2);
  });

  it('forgets everything on any other write of this process: a deleted measurement, raw statements', async () => {
    const [first] = await store.ingest([
      { sensor_id: 1, value: 1, timestamp: 100 },
      { sensor_id: 1, value: 2, timestamp: 200 },
    ]);
    texts().read(1, between(0, 1000));
    await store.remove.measurement(first.measurement_id);
    expect(texts().cached(1, between(0, 1000))).toBeUndefined();
    texts().read(1, between(0, 1000));
    await sql`update measurements set value = 7`.execute(dbOf(store));
    expect(texts().cached(1, between(0, 1000))).toBeUndefined();
    expect(JSON.parse(texts().read(1, between(0, 1000))!)[0].value).toBe(7);
  });

  it('forgets everything another program commits, from the next turn of the event loop', async () => {
    await store.ingest([{ sensor_id: 1, value: 1, timestamp: 100 }]);
    texts().read(1, between(0, 1000));
    other.prepare('insert into measurements (sensor_id, value, timestamp) values (1, 9, 500)').run();
    await nextTurn();
    expect(texts().cached(1, between(0, 1000))).toBeUndefined();
    expect(JSON.parse(texts().read(1, between(0, 1000))!)).toHaveLength(2);
  });

  it('keeps nothing while the writing connection has a transaction open', async () => {
    await store.ingest([{ sensor_id: 1, value: 1, timestamp: 100 }]);
    await store.transaction(async () => {
      texts().read(1, between(0, 1000));
      expect(texts().cached(1, between(0, 1000))).toBeUndefined();
    });
  });

  it('leaves a window of more rows than it holds to the pages', async () => {
    await store.ingest(Array.from({ length: MAX_WINDOW_ROWS + 1 }, (_, i) => ({ sensor_id: 1, value: i, timestamp: 1000 + i })));
    expect(texts().read(1, between(0, 10 ** 9))).toBeUndefined();
    expect(texts().read(1, between(0, 1000 + MAX_WINDOW_ROWS - 1))).toBe(await fromPages(1, between(0, 1000 + MAX_WINDOW_ROWS - 1)));
  });

  it('answers every window inside what was read as the rows make it (random rows, ties included)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.tuple(
            fc.integer({ min: 0, max: 50 }),
            // Any double a probe may send, short of the edge where a bucket's sum of two overflows.
            fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e300, max: 1e300 }),
          ),
          { maxLength: 40 },
        ),
        fc.tuple(fc.integer({ min: -5, max: 55 }), fc.integer({ min: -5, max: 55 }), fc.boolean()),
        fc.array(fc.tuple(fc.integer({ min: -5, max: 55 }), fc.integer({ min: -5, max: 55 }), fc.boolean()), {
          minLength: 1,
          maxLength: 5,
        }),
        async (rows, [a, b, inclusive], windows) => {
          await sql`delete from measurements`.execute(dbOf(store));
          if (rows.length > 0) await store.ingest(rows.map(([timestamp, value]) => ({ sensor_id: 1, value, timestamp })));
          const read = between(Math.min(a, b), Math.max(a, b), inclusive);
          expect(texts().read(1, read)).toBe(await fromPages(1, read));
          for (const [c, d, endInclusive] of windows) {
            const window = between(Math.min(c, d), Math.max(c, d), endInclusive);
            const cached = texts().cached(1, window);
            if (cached !== undefined) expect(cached).toBe(await fromPages(1, window));
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

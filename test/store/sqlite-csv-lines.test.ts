import SQLite from 'better-sqlite3';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TimeWindow } from '../../src/domain/time-window.js';
import { exportLines } from '../../src/measurements/csv.js';
import { openStore, type Store } from '../../src/store/index.js';
import { ROWS_PER_PAGE } from '../../src/store/repositories/measurements.js';
import { dbOf, type ScratchDatabase, scratchDatabase } from '../helpers/stores.js';

/**
 * The SQLite export writes its lines from pages of bare columns; they must be the bytes the lines
 * written from measurement objects are, for any value and timestamp.
 */
describe('SQLite export lines', () => {
  let database: ScratchDatabase;
  let store: Store;
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

  async function text(parts: AsyncIterable<string | Buffer>): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const part of parts) chunks.push(Buffer.from(part));
    return Buffer.concat(chunks).toString('utf8');
  }
  /** The export of `window` both ways: from the store's lines, and from measurement objects page by page. */
  async function bothWays(window: TimeWindow): Promise<[string, string]> {
    const sensors = await store.sensors.list();
    const walk = (id: number) => store.measurements.walkWindow(id, window);
    const copy = store.copyCsvLines!;
    return [
      await text(exportLines(sensors, walk, (id, head, tail) => copy(id, window, head, tail))),
      await text(exportLines(sensors, walk)),
    ];
  }
  const insert = (rows: readonly [number, number, number][]) => {
    const statement = other.prepare('insert into measurements (sensor_id, value, timestamp) values (?, ?, ?)');
    other.transaction(() => rows.forEach((row) => statement.run(...row)))();
  };

  it('writes the same bytes as the lines from objects, for any value and timestamp', async () => {
    const value = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.constantFrom(0, -0, 0.1 + 0.2, 1e21, 1e-7, 1e-6, 123456789012345680000, 5e-324, Number.MAX_VALUE, -1.5, 100, 0.000001),
      fc.integer(),
    );
    const timestamp = fc.oneof(
      fc.integer({ min: -62_167_219_200_000 - 10_000, max: 253_402_300_800_000 + 10_000 }),
      fc.integer({ min: 1_700_000_000_000, max: 1_700_000_100_000 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom(1, 2), value, timestamp), { maxLength: 30 }), async (rows) => {
        await sql`delete from measurements`.execute(dbOf(store));
        insert(rows);
        const [lines, fromObjects] = await bothWays({ endInclusive: false });
        expect(lines).toBe(fromObjects);
      }),
      { numRuns: 80 },
    );
  });

  it('pages through more rows than a page, many sharing one timestamp, inside a window', async () => {
    const rows: [number, number, number][] = [];
    for (let i = 0; i < ROWS_PER_PAGE * 2 + 10; i++) rows.push([1, i / 7, i < ROWS_PER_PAGE + 5 ? 5_000 : 5_000 + i]);
    insert(rows);
    const [lines, fromObjects] = await bothWays({ start: 5_000, end: 5_000 + ROWS_PER_PAGE * 2, endInclusive: false });
    expect(lines).toBe(fromObjects);
    // The header, and every row but the ten at or past the window's end.
    expect(lines.split('\r\n').length - 2).toBe(ROWS_PER_PAGE * 2);
  });
});

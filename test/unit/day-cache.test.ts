import { describe, expect, it } from 'vitest';
import { dayCache, jsonArrayOf, rowsOf } from '../../src/history/day-cache.js';
import { DAY, HOUR } from '../../src/domain/bucket-sizes.js';
import type { BucketRead, BucketRow } from '../../src/domain/bucket-rows.js';

/** A store of hourly rows in memory: [start, value], each day with a stamp; counts the rows read. */
function source(days: number) {
  const stamps = new Map<number, number>();
  const rows: BucketRow[] = [];
  for (let d = 0; d < days; d++) {
    stamps.set(d * DAY, 1);
    for (let h = 0; h < 24; h++) rows.push([d * DAY + h * HOUR, d * 100 + h]);
  }
  const read = { rows: 0 };
  return {
    stamps,
    rows,
    read,
    async dayStamps(_sensorId: number, from: number, to: number): Promise<[number, number][]> {
      return [...stamps].filter(([day]) => day >= from && day < to);
    },
    async bucketRows(_read: BucketRead, _sensorId: number, _size: number, from: number, to: number): Promise<BucketRow[]> {
      const out = rows.filter((r) => r[0] >= from && r[0] < to);
      read.rows += out.length;
      return out;
    },
  };
}

describe('dayCache', () => {
  it('reads a whole day once while its stamp holds, and the edges every time', async () => {
    const store = source(4);
    const cache = dayCache(store);
    const from = 5 * HOUR;
    const to = 3 * DAY + 2 * HOUR;
    const first = rowsOf(await cache.stretches('values', 1, HOUR, from, to));
    expect(first).toEqual(store.rows.filter((r) => r[0] >= from && r[0] < to));
    expect(store.read.rows).toBe(first.length);
    store.read.rows = 0;
    expect(rowsOf(await cache.stretches('values', 1, HOUR, from, to))).toEqual(first);
    // Only the partial days at the edges: 19 hours of day 0, 2 of day 3.
    expect(store.read.rows).toBe(21);
  });

  it('reads a day again when its stamp changes', async () => {
    const store = source(3);
    const cache = dayCache(store);
    await cache.stretches('values', 1, HOUR, 0, 3 * DAY);
    store.rows[30] = [store.rows[30][0], -1];
    store.stamps.set(DAY, 2);
    store.read.rows = 0;
    const again = rowsOf(await cache.stretches('values', 1, HOUR, 0, 3 * DAY));
    expect(again[30][1]).toBe(-1);
    expect(store.read.rows).toBe(24);
  });

  it('keeps at most its limit of rows, dropping the least recently used days', async () => {
    const store = source(5);
    const cache = dayCache(store, 48);
    await cache.stretches('values', 1, HOUR, 0, 5 * DAY);
    expect(cache.size()).toBe(48);
    store.read.rows = 0;
    await cache.stretches('values', 1, HOUR, 3 * DAY, 5 * DAY);
    expect(store.read.rows).toBe(0);
    await cache.stretches('values', 1, HOUR, 0, DAY);
    expect(store.read.rows).toBe(24);
    expect(cache.size()).toBe(48);
  });

  it('writes the stretches as one JSON array, days without rows left out', async () => {
    const store = source(2);
    store.stamps.set(2 * DAY, 1);
    const cache = dayCache(store);
    const stretches = await cache.stretches('values', 1, HOUR, 22 * HOUR, 3 * DAY);
    const json = jsonArrayOf(stretches, (r) => String(r[1]));
    expect(JSON.parse(json.toString())).toEqual([22, 23, ...Array.from({ length: 24 }, (_, h) => 100 + h)]);
    expect(jsonArrayOf([], String).toString()).toBe('[]');
  });
});

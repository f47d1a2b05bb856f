import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';

describe('sqlite::memory:', () => {
  it('keeps the store in memory, with the same behaviour and no file', async () => {
    const store = await openStore('sqlite::memory:');
    try {
      expect((await store.prototypes.list()).map((p) => p.prototype_id)).toEqual([0]);
      const [m] = await store.ingest([{ sensor_id: 1, value: 2.5, timestamp: 1000 }]);
      expect(await store.measurements.last(1)).toEqual(m);
      expect(existsSync(':memory:')).toBe(false);
      // Bucket reads without the read-only connection a file gives: the same arrays, through the query builder.
      const [later] = await store.ingest([{ sensor_id: 1, value: 0.5, timestamp: 2000 }]);
      expect(await store.history.bucketRows('values', 1, 300_000, 0, 300_000)).toEqual([[0, 2, 3, 0.5, 2.5, 2.5, 0.5]]);
      expect(await store.history.bucketRows('whole', 1, 300_000, 0, 300_000)).toEqual([
        [
          0,
          2,
          3,
          0.5,
          2000,
          later.measurement_id,
          2.5,
          1000,
          m.measurement_id,
          2.5,
          1000,
          m.measurement_id,
          0.5,
          2000,
          later.measurement_id,
        ],
      ]);
      expect(await store.history.bucketRows('values', 1, 300_000, 300_000, 600_000)).toEqual([]);
    } finally {
      await store.close();
    }
  });
});

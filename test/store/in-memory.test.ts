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
    } finally {
      await store.close();
    }
  });
});

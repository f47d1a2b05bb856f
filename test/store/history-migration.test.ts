import { describe, expect, it } from 'vitest';
import { bucketsOf } from '../../src/domain/bucket-fold.js';
import { KEPT_SIZES } from '../../src/domain/bucket-sizes.js';
import { openStore } from '../../src/store/index.js';
import { rawRows, storeBeforeHistory, storedBuckets } from '../helpers/history.js';
import { storeKinds, dbOf, dialectOf } from '../helpers/stores.js';

const AT = Date.UTC(2026, 10, 22, 12);

describe.each(storeKinds())('the history migration (%s)', (kind) => {
  it('builds the buckets of the measurements already stored, reporting progress', async () => {
    // A store as the release before history left it.
    const { database, db, dialect } = await storeBeforeHistory(kind, [1, 2]);
    try {
      // Two days of one sensor every 17 s (more than a read page), a few of the other, out of order.
      const rows = [];
      for (let i = 0; i < 10_000; i++) rows.push({ sensor_id: 1, value: (i * 37) % 101, timestamp: dialect.time(AT - i * 17_000) });
      for (let i = 0; i < 5; i++) rows.push({ sensor_id: 2, value: i, timestamp: dialect.time(AT - i * 3_600_000) });
      for (let i = 0; i < rows.length; i += 1000)
        await db
          .insertInto('measurements')
          .values(rows.slice(i, i + 1000))
          .execute();
      await db.destroy();

      const logged: string[] = [];
      const store = await openStore(database.url, { seedDefaults: false, log: (_details, message) => logged.push(message) });
      try {
        expect(logged[0]).toMatch(/building/);
        expect(logged).toContain('history buckets: built');
        const raw = await rawRows(dbOf(store), dialectOf(store));
        for (const sensorId of [1, 2]) {
          for (const size of KEPT_SIZES) {
            const want = bucketsOf(
              raw.filter((r) => r.sensor_id === sensorId),
              size,
            );
            expect(await storedBuckets(dbOf(store), sensorId, size)).toEqual(want);
          }
        }
      } finally {
        await store.close();
      }
    } finally {
      await database.drop();
    }
  }, 120_000);
});

import { Migrator } from 'kysely';
import { describe, expect, it } from 'vitest';
import { bucketsOf } from '../../src/history/fold.js';
import { KEPT_SIZES } from '../../src/history/sizes.js';
import { bucketOf } from '../../src/store/history-sql.js';
import { openStore } from '../../src/store/index.js';
import { migrationProvider } from '../../src/store/migrations/index.js';
import { bareConnection, scratchDatabase, storeKinds } from '../helpers/stores.js';

const AT = Date.UTC(2026, 10, 22, 12);

describe.each(storeKinds())('the history migration (%s)', (kind) => {
  it('builds the buckets of the measurements already stored, reporting progress', async () => {
    const database = await scratchDatabase(kind);
    try {
      // A store as the release before history left it.
      const old = bareConnection(kind, database.url);
      const { dialect } = old;
      const { error } = await new Migrator({ db: old.db, provider: migrationProvider(dialect) }).migrateTo('004_no_nul');
      expect(error).toBeUndefined();
      await old.db.insertInto('prototypes').values({ prototype_id: 0, prototype_name: 'tank' }).execute();
      for (const sensor_id of [1, 2]) {
        await old.db
          .insertInto('sensors')
          .values({
            sensor_id,
            sensor_type: 'ph',
            prototype_id: 0,
            sensor_unit: 'pH',
            threshold_critically_low: 0,
            threshold_low: 1,
            threshold_high: 2,
            threshold_critically_high: 3,
          })
          .execute();
      }
      // Two days of one sensor every 17 s (more than a read page), a few of the other, out of order.
      const rows = [];
      for (let i = 0; i < 10_000; i++) rows.push({ sensor_id: 1, value: (i * 37) % 101, timestamp: dialect.time(AT - i * 17_000) });
      for (let i = 0; i < 5; i++) rows.push({ sensor_id: 2, value: i, timestamp: dialect.time(AT - i * 3_600_000) });
      for (let i = 0; i < rows.length; i += 1000)
        await old.db
          .insertInto('measurements')
          .values(rows.slice(i, i + 1000))
          .execute();
      await old.db.destroy();

      const logged: string[] = [];
      const store = await openStore(database.url, { seedDefaults: false, log: (_details, message) => logged.push(message) });
      try {
        expect(logged[0]).toMatch(/building/);
        expect(logged.at(-1)).toMatch(/built/);
        const raw = await store.db
          .selectFrom('measurements')
          .select(['measurement_id', 'sensor_id', 'value', store.dialect.timestampMs().as('timestamp')])
          .execute();
        for (const sensorId of [1, 2]) {
          for (const size of KEPT_SIZES) {
            const stored = await store.db
              .selectFrom('history_buckets')
              .selectAll()
              .where('sensor_id', '=', sensorId)
              .where('size_ms', '=', size)
              .orderBy('start_ms')
              .execute();
            const want = bucketsOf(
              raw.filter((r) => r.sensor_id === sensorId),
              size,
            );
            expect(stored.map(bucketOf)).toEqual(want);
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

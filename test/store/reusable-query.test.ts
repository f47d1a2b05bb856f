import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { reusableQuery } from '../../src/store/reusable-query.js';
import { dbOf, dialectOf, scratchDatabase, storeKinds } from '../helpers/stores.js';

const AT = Date.UTC(2026, 10, 25, 12);

describe.each(storeKinds())('a query compiled once and run with other values (%s)', (kind) => {
  it('answers each call as the query built with that call’s values would, inside and outside a transaction', async () => {
    const database = await scratchDatabase(kind);
    const store = await openStore(database.url, { seedDefaults: false });
    try {
      const db = dbOf(store);
      const dialect = dialectOf(store);
      await db.insertInto('prototypes').values({ prototype_id: 0, prototype_name: 'tank' }).execute();
      const sensor = (id: number, low: number) => ({
        sensor_id: id,
        sensor_type: 'ph' as const,
        prototype_id: 0,
        sensor_unit: 'pH',
        threshold_critically_low: low - 1,
        threshold_low: low,
        threshold_high: 7,
        threshold_critically_high: 8,
      });
      await db
        .insertInto('sensors')
        .values([sensor(1, 5), sensor(2, 5.5), sensor(3, 6)])
        .execute();

      let builds = 0;
      const between = reusableQuery((db, _dialect, from: number, to: number) => {
        builds += 1;
        return db
          .selectFrom('sensors')
          .select(['sensor_id', 'threshold_low'])
          .where('threshold_low', '>=', from)
          .where('threshold_low', '<=', to)
          .where('sensor_type', '=', 'ph')
          .orderBy('sensor_id');
      });
      const built = (from: number, to: number) =>
        db
          .selectFrom('sensors')
          .select(['sensor_id', 'threshold_low'])
          .where('threshold_low', '>=', from)
          .where('threshold_low', '<=', to)
          .where('sensor_type', '=', 'ph')
          .orderBy('sensor_id')
          .execute();

      for (const [from, to] of [
        [5, 6],
        [5.5, 5.5],
        [6, 5],
        [0, 100],
      ]) {
        expect(await between(db, dialect, from, to)).toEqual(await built(from, to));
      }
      // Inside a transaction, on its connection: it sees the transaction's own write.
      const inside = await db.transaction().execute(async (trx) => {
        await trx.updateTable('sensors').set({ threshold_low: 9 }).where('sensor_id', '=', 3).execute();
        return between(trx, dialect, 9, 9);
      });
      expect(inside).toEqual([{ sensor_id: 3, threshold_low: 9 }]);
      expect(builds).toBe(1);
    } finally {
      await store.close();
      await database.drop();
    }
  });

  it('refuses a query where an argument is not bound as it was given', async () => {
    const database = await scratchDatabase(kind);
    const store = await openStore(database.url, { seedDefaults: false });
    try {
      // An argument left out, and one converted before it is bound: neither is found among the values.
      const unused = reusableQuery((db, _dialect, _id: number) => db.selectFrom('sensors').selectAll());
      await expect(unused(dbOf(store), dialectOf(store), 1)).rejects.toThrow(/argument 0 is not a bound value/);
      const converted = reusableQuery((db, dialect, at: number) =>
        db
          .selectFrom('measurements')
          .selectAll()
          .where('timestamp', '>=', dialect.at(at + 0)),
      );
      await expect(converted(dbOf(store), dialectOf(store), AT)).rejects.toThrow(/argument 0 is not a bound value/);
    } finally {
      await store.close();
      await database.drop();
    }
  });
});

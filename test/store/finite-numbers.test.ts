import { Migrator } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrationProvider } from '../../src/store/migrations/index.js';
import { openStore } from '../../src/store/index.js';
import { bareConnection, scratchDatabase, storeKinds, dbOf } from '../helpers/stores.js';

const AT = Date.UTC(2026, 10, 22, 12);

describe.each(storeKinds())('finite numbers in the store (%s)', (kind) => {
  it('mends what an older version let in, then refuses any non-finite number', async () => {
    const database = await scratchDatabase(kind);
    try {
      // A store as the release before this rule left it, holding what the attack wrote.
      const old = bareConnection(kind, database.url);
      const { dialect } = old;
      const { error } = await new Migrator({ db: old.db, provider: migrationProvider(dialect) }).migrateTo('002_token_generation');
      expect(error).toBeUndefined();
      await old.db.insertInto('prototypes').values({ prototype_id: 0, prototype_name: 'tank' }).execute();
      await old.db
        .insertInto('sensors')
        .values({
          sensor_id: 1,
          sensor_type: 'ph',
          prototype_id: 0,
          sensor_unit: 'pH',
          threshold_critically_low: -Infinity,
          threshold_low: 5,
          threshold_high: 7,
          threshold_critically_high: Infinity,
        })
        .execute();
      await old.db
        .insertInto('actuators')
        .values({
          actuator_id: 1,
          actuator_type: 'acid_pump',
          sensor_id: 1,
          condition_value: -Infinity,
          activation_condition: 'low',
          activation_period: Infinity,
          activation_duration: 2,
          actuator_name: null,
          enabled: dialect.bool(true),
          last_activated: dialect.time(AT),
        } as never)
        .execute();
      const values = kind === 'postgres' ? [1.5, Infinity, -Infinity, Number.NaN] : [1.5, Infinity, -Infinity];
      await old.db
        .insertInto('measurements')
        .values(values.map((value, i) => ({ sensor_id: 1, value, timestamp: dialect.time(AT + i) })) as never)
        .execute();
      await old.db.destroy();

      const store = await openStore(database.url, { seedDefaults: false });
      try {
        const measurements = await dbOf(store).selectFrom('measurements').select(['value']).execute();
        expect(measurements).toEqual([{ value: 1.5 }]);
        const sensor = await dbOf(store).selectFrom('sensors').selectAll().executeTakeFirstOrThrow();
        expect([sensor.threshold_critically_low, sensor.threshold_critically_high]).toEqual([-Number.MAX_VALUE, Number.MAX_VALUE]);
        const actuator = await dbOf(store)
          .selectFrom('actuators')
          .select(['condition_value', 'activation_period'])
          .executeTakeFirstOrThrow();
        expect(actuator).toEqual({ condition_value: -Number.MAX_VALUE, activation_period: Number.MAX_VALUE });

        for (const value of [Infinity, -Infinity, Number.NaN]) {
          await expect(
            dbOf(store)
              .insertInto('measurements')
              .values({ sensor_id: 1, value, timestamp: dialect.time(AT) } as never)
              .execute(),
          ).rejects.toThrow();
          await expect(dbOf(store).updateTable('measurements').set({ value }).execute()).rejects.toThrow();
          await expect(dbOf(store).updateTable('sensors').set({ threshold_low: value }).execute()).rejects.toThrow();
          await expect(dbOf(store).updateTable('actuators').set({ activation_duration: value }).execute()).rejects.toThrow();
        }
        // The largest doubles themselves are finite, and stay allowed.
        await dbOf(store).updateTable('measurements').set({ value: -Number.MAX_VALUE }).execute();
        expect(await dbOf(store).selectFrom('measurements').select(['value']).execute()).toEqual([{ value: -Number.MAX_VALUE }]);
      } finally {
        await store.close();
      }
    } finally {
      await database.drop();
    }
  });
});

describe('NUL characters left by an older version (sqlite)', () => {
  it('become U+FFFD, so the names stay readable and the store can be copied to PostgreSQL', async () => {
    const database = await scratchDatabase('sqlite');
    try {
      const old = bareConnection('sqlite', database.url);
      const { error } = await new Migrator({ db: old.db, provider: migrationProvider(old.dialect) }).migrateTo('003_finite_numbers');
      expect(error).toBeUndefined();
      await old.db.insertInto('prototypes').values({ prototype_id: 0, prototype_name: 'tank\u0000one' }).execute();
      await old.db.insertInto('prototypes').values({ prototype_id: 1, prototype_name: 'plain' }).execute();
      await old.db.destroy();

      const store = await openStore(database.url, { seedDefaults: false });
      try {
        const names = await dbOf(store).selectFrom('prototypes').select(['prototype_name']).orderBy('prototype_id').execute();
        expect(names.map((row) => row.prototype_name)).toEqual(['tank\ufffdone', 'plain']);
      } finally {
        await store.close();
      }
    } finally {
      await database.drop();
    }
  });
});

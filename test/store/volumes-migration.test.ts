import { Migrator } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { migrationProvider } from '../../src/store/migrations/index.js';
import { bareConnection, scratchDatabase, storeKinds } from '../helpers/stores.js';

const AT = Date.UTC(2026, 10, 22, 12);

/**
 * Migration 035 (docs/api.md §15): pumps and doses stored before it read as "no flow, no limit, stock
 * not tracked, no warning" and "volume unknown", and keep working.
 */
describe.each(storeKinds())('the volumes migration (%s)', (kind) => {
  it('upgrades existing pumps and doses to null volumes, flows and stocks', async () => {
    const database = await scratchDatabase(kind);
    try {
      const { db, dialect } = bareConnection(kind, database.url);
      const { error } = await new Migrator({ db, provider: migrationProvider(dialect) }).migrateTo('034_sensor_names');
      expect(error).toBeUndefined();
      await db.insertInto('prototypes').values({ prototype_id: 0, prototype_name: 'tank' }).execute();
      await db
        .insertInto('sensors')
        .values({
          sensor_id: 1,
          sensor_type: 'ph',
          prototype_id: 0,
          sensor_unit: 'pH',
          threshold_critically_low: 0,
          threshold_low: 5,
          threshold_high: 7,
          threshold_critically_high: 14,
        })
        .execute();
      await db
        .insertInto('actuators')
        .values({
          actuator_id: 1,
          actuator_type: 'acid_pump',
          sensor_id: 1,
          condition_value: 6.5,
          activation_condition: 'high',
          activation_period: 60,
          activation_duration: 2,
          actuator_name: null,
          enabled: dialect.bool(true),
          last_activated: dialect.time(AT),
        })
        .execute();
      await db
        .insertInto('activations')
        .values({ actuator_id: 1, activated_at: dialect.time(AT), duration: 2, value_before: 7.1, answered: null })
        .execute();
      await db.destroy();

      const store = await openStore(database.url, { seedDefaults: false });
      try {
        expect(await store.actuators.get(1)).toMatchObject({
          flow_ml_per_s: null,
          max_ml_per_day: null,
          stock_ml: null,
          stock_low_ml: null,
        });
        expect(await store.activations.since(1, 0)).toMatchObject([{ duration: 2, value_before: 7.1, volume_ml: null }]);
        expect(await store.refills.between([1], { endInclusive: false })).toEqual([]);
      } finally {
        await store.close();
      }
    } finally {
      await database.drop();
    }
  });
});

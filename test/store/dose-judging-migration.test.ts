import { Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { migrationProvider } from '../../src/store/migrations/index.js';
import { bareConnection, scratchDatabase, storeKinds } from '../helpers/stores.js';

const AT = Date.UTC(2026, 10, 22, 12);

/**
 * Migrations 085 and 086: pumps that kept the old default `min_response` 0 take the automatic
 * judging, an explicit one is kept; every pump gets the new defaults; doses read "not measured";
 * alerts stored before keep their ids and the schema accepts the `unusual` kind, and no other new one.
 */
describe.each(storeKinds())('the dose judging migrations (%s)', (kind) => {
  it('upgrades existing pumps, doses and alerts', async () => {
    const database = await scratchDatabase(kind);
    try {
      const { db, dialect } = bareConnection(kind, database.url);
      const { error } = await new Migrator({ db, provider: migrationProvider(dialect) }).migrateTo('072_leases');
      expect(error).toBeUndefined();
      await db.insertInto('prototypes').values({ prototype_id: 0, prototype_name: 'tank' }).execute();
      const sensor = {
        sensor_type: 'ph',
        prototype_id: 0,
        sensor_unit: 'pH',
        threshold_critically_low: 0,
        threshold_low: 5,
        threshold_high: 7,
        threshold_critically_high: 14,
      } as const;
      await db
        .insertInto('sensors')
        .values({ sensor_id: 1, ...sensor })
        .execute();
      const pump = {
        actuator_type: 'acid_pump',
        sensor_id: 1,
        condition_value: 6.5,
        activation_condition: 'high',
        activation_period: 60,
        activation_duration: 2,
        actuator_name: null,
        enabled: dialect.bool(true),
        last_activated: dialect.time(AT),
      } as const;
      await db
        .insertInto('actuators')
        .values({ actuator_id: 1, ...pump })
        .execute();
      await db
        .insertInto('actuators')
        .values({ actuator_id: 2, ...pump, min_response: 0.05 })
        .execute();
      await db
        .insertInto('activations')
        .values({ actuator_id: 1, activated_at: dialect.time(AT), duration: 2, value_before: 7.1, answered: dialect.bool(true) })
        .execute();
      await db
        .insertInto('alerts')
        .values({
          alert_id: 7,
          sensor_id: null,
          actuator_id: 1,
          kind: 'lockout',
          severity: 'critical',
          state: 'active',
          raised_at: dialect.time(AT),
        })
        .execute();
      await db.destroy();

      const store = await openStore(database.url, { seedDefaults: false });
      try {
        expect(await store.actuators.get(1)).toMatchObject({
          min_response: null,
          lockout_reversed_after: 3,
          usual_days: 7,
          usual_window: 21600,
          unusual_factor: 2,
          usual_since: null,
          lockout_kind: null,
        });
        expect((await store.actuators.get(2))?.min_response).toBe(0.05);
        expect(await store.activations.since(1, 0)).toMatchObject([{ answered: true, response: null, reversed: null }]);
        const raised = await store.alerts.raise({
          sensor_id: null,
          actuator_id: 2,
          kind: 'unusual',
          severity: 'critical',
          raised_at: AT,
          value: 2.5,
          peak: null,
        });
        expect(raised.alert_id).not.toBe(7);
        expect((await store.alerts.activeOfActuator(1, 'lockout'))?.alert_id).toBe(7);
        const bare = bareConnection(kind, database.url);
        try {
          await expect(
            sql`insert into alerts (sensor_id, actuator_id, kind, severity, state, raised_at) values (null, 2, 'nonsense', 'critical', 'active', ${dialect.time(AT)})`.execute(
              bare.db,
            ),
          ).rejects.toThrow();
        } finally {
          await bare.db.destroy();
        }
      } finally {
        await store.close();
      }
    } finally {
      await database.drop();
    }
  });
});

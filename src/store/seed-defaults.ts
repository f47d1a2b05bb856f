import type { Kysely } from 'kysely';
import type { SensorType } from '../domain/sensor.js';
import type { Database } from './database.js';
import type { Dialect } from './dialect.js';
import { settingRepository } from './repositories/settings.js';

const MARKER = 'defaults_seeded';

/**
 * On the first start of an empty store, creates prototype 0 with its three sensors and one acid
 * pump on the ph sensor (disabled), as the existing dashboard expects. Stores seeded earlier keep
 * what they have. The marker row makes it happen once, even when several
 * service processes start on one database at the same moment: only the transaction that inserts
 * the marker seeds, the others wait for it and find the marker taken.
 */
export async function seedDefaults(db: Kysely<Database>, dialect: Dialect, now = Date.now()): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const first = await settingRepository(trx).setIfAbsent(MARKER, new Date(now).toISOString());
    if (!first) return false;
    const anyPrototype = await trx.selectFrom('prototypes').select('prototype_id').limit(1).executeTakeFirst();
    if (anyPrototype) return false;

    await trx.insertInto('prototypes').values({ prototype_id: 0, prototype_name: 'default_prototype' }).execute();
    const sensor = (sensor_type: SensorType, sensor_unit: string, t: [number, number, number, number]) => ({
      sensor_type,
      prototype_id: 0,
      sensor_unit,
      threshold_critically_low: t[0],
      threshold_low: t[1],
      threshold_high: t[2],
      threshold_critically_high: t[3],
    });
    await trx
      .insertInto('sensors')
      .values(sensor('ec', 'mS/cm', [0, 1, 2, 3]))
      .execute();
    const ph = await trx
      .insertInto('sensors')
      .values(sensor('ph', 'pH', [0, 4, 7, 10]))
      .returning('sensor_id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('sensors')
      .values(sensor('temperature', 'Celsius', [0, 10, 30, 40]))
      .execute();
    // An acid pump lowers pH: it watches the ph sensor and runs above 6.5. Disabled, so a fresh
    // install never doses on its own until a grower has checked it and enabled it.
    await trx
      .insertInto('actuators')
      .values({
        actuator_type: 'acid_pump',
        sensor_id: ph.sensor_id,
        condition_value: 6.5,
        activation_condition: 'high',
        activation_period: 300,
        activation_duration: 2,
        actuator_name: null,
        enabled: dialect.bool(false),
        last_activated: dialect.time(now),
      })
      .execute();
    return true;
  });
}

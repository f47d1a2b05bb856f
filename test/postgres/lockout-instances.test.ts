import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { phSensorBody } from '../helpers/bodies.js';
import { eventually } from '../helpers/eventually.js';
import { requestJson, type ServiceProcess, spawnService } from '../helpers/process.js';
import { bareConnection, type ScratchDatabase, scratchDatabase } from '../helpers/stores.js';

/** Dose judging and lockout with two service processes on one PostgreSQL database (docs/api.md §14). */
describe.runIf(process.env.TEST_DATABASE_URL)('lockout with several service processes', () => {
  let database: ScratchDatabase;
  let a: ServiceProcess;
  let b: ServiceProcess;
  let db: ReturnType<typeof bareConnection>['db'];

  beforeAll(async () => {
    database = await scratchDatabase('postgres');
    const env = { DATABASE_URL: database.url };
    [a, b] = await Promise.all([spawnService(env), spawnService(env)]);
    db = bareConnection('postgres', database.url).db;
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await db?.destroy();
    await database?.drop();
  });

  it('doses reported through one and read through both lock the pump out once, visible through the other, with one alert', async () => {
    const sensor_id = (await requestJson(`${a.url}/sensors/`, 'POST', { ...phSensorBody, threshold_high: 14 })).body.sensor_id as number;
    // Judged at once by the next reading (no response delay), locked after 4 unanswered in a row.
    // An explicit threshold (min_response: 0): automatic judging would wait for 3 readings after each dose.
    const pump = await requestJson(`${a.url}/actuators`, 'POST', {
      actuator_type: 'acid_pump',
      sensor_id,
      condition_value: 6.5,
      activation_condition: 'high',
      activation_period: 1,
      activation_duration: 1,
      response_delay: 0,
      min_response: 0,
      lockout_after: 4,
    });
    expect(pump.status).toBe(200);
    const actuatorId = pump.body.actuator_id as number;
    for (let i = 0; i < 6; i++) {
      // The readings come through both processes; each judges what it committed.
      expect((await requestJson(`${(i % 2 ? b : a).url}/measurements`, 'POST', { sensor_id, value: 8 })).status).toBe(200);
      expect((await requestJson(`${a.url}/actuators/${actuatorId}/last_activated`, 'PATCH')).status).toBe(200);
      await eventually(
        async () =>
          (await requestJson(`${a.url}/actuators/${actuatorId}/activations`)).body.filter((d: { answered: unknown }) => d.answered === null)
            .length <= 1,
        'the dose before judged',
      );
    }
    expect((await requestJson(`${b.url}/measurements`, 'POST', { sensor_id, value: 8 })).status).toBe(200);
    const locked = await eventually(async () => {
      const listed = (await requestJson(`${b.url}/actuators/0`)).body as { actuator_id: number; lockout: unknown }[];
      return listed.find((x) => x.actuator_id === actuatorId && x.lockout !== null);
    }, 'the lockout seen through the other process');
    expect(locked.lockout).toMatchObject({ reason: '4 doses in a row did not move pH down by more than 0' });
    const alerts = await eventually(async () => {
      const listed = (await requestJson(`${b.url}/alerts?prototype_id=0`)).body as { kind: string; actuator_id: number | null }[];
      const lockouts = listed.filter((x) => x.kind === 'lockout' && x.actuator_id === actuatorId);
      return lockouts.length > 0 && lockouts;
    }, 'the lockout alert through the other process');
    expect(alerts).toHaveLength(1);
    const rows = await sql<{ n: string }>`select count(*) as n from alerts where actuator_id = ${actuatorId}`.execute(db);
    expect(Number(rows.rows[0].n)).toBe(1);
    const judged = (await requestJson(`${b.url}/actuators/${actuatorId}/activations`)).body as { answered: boolean | null }[];
    expect(judged.map((d) => d.answered)).toEqual([false, false, false, false, false, false]);
  });
});

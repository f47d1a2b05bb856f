import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestJson, type ServiceProcess, spawnService } from '../helpers/process.js';
import { type ScratchDatabase, scratchDatabase } from '../helpers/stores.js';
import { phSensorBody } from '../helpers/bodies.js';

describe.runIf(process.env.TEST_DATABASE_URL)('several service processes on one PostgreSQL database', () => {
  let database: ScratchDatabase;
  let a: ServiceProcess;
  let b: ServiceProcess;
  beforeAll(async () => {
    database = await scratchDatabase('postgres');
    // Both start at the same moment on an empty database.
    [a, b] = await Promise.all([spawnService({ DATABASE_URL: database.url }), spawnService({ DATABASE_URL: database.url })]);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.drop();
  });

  it('migrates once and creates the default data exactly once', async () => {
    expect((await requestJson(`${a.url}/prototypes`)).body).toEqual([
      { prototype_id: 0, prototype_name: 'default_prototype', paused_until: null },
    ]);
    expect((await requestJson(`${b.url}/sensors/0`)).body).toHaveLength(3);
    expect((await requestJson(`${a.url}/actuators/0`)).body).toHaveLength(1);
  });

  it('hands out distinct ids to concurrent writers on both processes', async () => {
    const sensor = phSensorBody;
    const created = await Promise.all(Array.from({ length: 40 }, (_, i) => requestJson(`${(i % 2 ? a : b).url}/sensors/`, 'POST', sensor)));
    expect(created.every((r) => r.status === 200)).toBe(true);
    const ids = created.map((r) => r.body.sensor_id);
    expect(new Set(ids).size).toBe(40);
    const measurements = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        requestJson(`${(i % 2 ? a : b).url}/measurements`, 'POST', [
          { sensor_id: 1, value: i },
          { sensor_id: 2, value: i },
        ]),
      ),
    );
    const measurementIds = measurements.flatMap((r) => r.body.map((m: { measurement_id: number }) => m.measurement_id));
    expect(new Set(measurementIds).size).toBe(80);
  });

  it('keeps bulk updates atomic when both processes patch the same sensors at once', async () => {
    const rounds = 15;
    const patches = Array.from({ length: rounds * 2 }, (_, i) => {
      const unit = `u${i}`;
      // Opposite orders on the two processes: deadlocks are resolved by running the loser again.
      const body =
        i % 2
          ? [
              { sensor_id: 1, sensor_unit: unit },
              { sensor_id: 2, sensor_unit: unit },
            ]
          : [
              { sensor_id: 2, sensor_unit: unit },
              { sensor_id: 1, sensor_unit: unit },
            ];
      return requestJson(`${(i % 2 ? a : b).url}/sensors`, 'PATCH', body);
    });
    const results = await Promise.all(patches);
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    const sensors = (await requestJson(`${a.url}/sensors/0`)).body as { sensor_id: number; sensor_unit: string }[];
    const units = sensors.filter((s) => s.sensor_id <= 2).map((s) => s.sensor_unit);
    expect(units[0]).toMatch(/^u\d+$/);
    expect(units[1]).toBe(units[0]);
  });

  it('shares the token secret: a token from one process works on the other', async () => {
    const created = await fetch(`${a.url}/users/new/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'username=ops&password=long%20enough',
    });
    const { access_token } = (await created.json()) as { access_token: string };
    const items = await fetch(`${b.url}/users/items/`, { headers: { authorization: `Bearer ${access_token}` } });
    expect(items.status).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnService } from '../helpers/process.js';
import { type ScratchDatabase, scratchDatabase, storeKinds } from '../helpers/stores.js';

async function json(url: string, init?: RequestInit) {
  const res = await fetch(url, init);
  return { status: res.status, body: await res.json() };
}

describe.each(storeKinds())('restart on the same store (%s)', (kind) => {
  let database: ScratchDatabase;
  beforeAll(async () => {
    database = await scratchDatabase(kind);
  });
  afterAll(() => database?.drop());

  it('keeps the data written before SIGTERM and does not seed the defaults twice', async () => {
    const first = await spawnService({ DATABASE_URL: database.url });
    const created = await json(`${first.url}/prototypes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prototype_id: 5, prototype_name: 'greenhouse' }),
    });
    expect(created.status).toBe(200);
    const sensor = await json(`${first.url}/sensors/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        sensor_type: 'humidity',
        prototype_id: 5,
        sensor_unit: '%',
        threshold_critically_low: 10,
        threshold_low: 30,
        threshold_high: 70,
        threshold_critically_high: 90,
      }),
    });
    expect(sensor.status).toBe(200);
    expect(await first.stop('SIGTERM')).toBe(0);
    expect(first.output.some((line) => line.includes('"msg":"stopped"'))).toBe(true);

    const second = await spawnService({ DATABASE_URL: database.url });
    try {
      expect((await json(`${second.url}/prototypes`)).body).toEqual([
        { prototype_id: 0, prototype_name: 'default_prototype', paused_until: null },
        { prototype_id: 5, prototype_name: 'greenhouse', paused_until: null },
      ]);
      expect((await json(`${second.url}/sensors/5`)).body).toEqual([sensor.body]);
      const defaults = (await json(`${second.url}/sensors/0`)).body as { sensor_type: string }[];
      expect(defaults.map((s) => s.sensor_type)).toEqual(['ec', 'ph', 'temperature']);
    } finally {
      await second.stop();
    }
  });

  it('logs one structured JSON line per request', async () => {
    const service = await spawnService({ DATABASE_URL: database.url });
    try {
      await fetch(`${service.url}/prototypes/0`);
      await fetch(`${service.url}/prototypes/404`);
      const requests = () =>
        service.output
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line))
          .filter((entry) => entry.msg === 'request');
      // The line is written once the response has gone, so it may trail the response a little.
      for (let i = 0; i < 100 && requests().length < 2; i++) await new Promise((r) => setTimeout(r, 20));
      expect(requests()).toEqual([
        expect.objectContaining({ level: 30, method: 'GET', url: '/prototypes/0', status: 200 }),
        expect.objectContaining({ level: 30, method: 'GET', url: '/prototypes/404', status: 404 }),
      ]);
    } finally {
      await service.stop();
    }
  });
});

describe('start-up configuration', () => {
  it('refuses a bad value and names the variable', async () => {
    await expect(spawnService({ PORT: 'eighty', DATABASE_URL: 'sqlite::memory:' })).rejects.toThrow(/PORT/);
    await expect(spawnService({ AUTH_MODE: 'sometimes', DATABASE_URL: 'sqlite::memory:' })).rejects.toThrow(/AUTH_MODE/);
  });

  it('skips the default data with SEED_DEFAULTS=false', async () => {
    const database = await scratchDatabase('sqlite');
    const service = await spawnService({ DATABASE_URL: database.url, SEED_DEFAULTS: 'false' });
    try {
      expect((await json(`${service.url}/prototypes`)).body).toEqual([]);
    } finally {
      await service.stop();
      await database.drop();
    }
  });
});

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { type Config, loadConfig, storeOptions } from '../../src/config/index.js';
import { changeBus } from '../../src/core/bus.js';
import { openStore, type PolledReads, type Store } from '../../src/store/index.js';
import { type ScratchDatabase, scratchDatabase, storeKinds } from '../helpers/stores.js';

const NOW = Date.UTC(2026, 10, 22, 12);

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

/**
 * The polled reads are answered in front of Fastify's pipeline; the same requests sent to an app
 * on the same store with that turned off must get the same status, headers and body.
 */
describe.each(storeKinds())('polled reads answered in front of the pipeline (%s)', (kind) => {
  let database: ScratchDatabase;
  let config: Config;
  let store: Store;
  let hot: FastifyInstance;
  let plain: FastifyInstance;
  let hotUrl: string;
  let plainUrl: string;
  const calls = { lastMeasurement: 0, actuator: 0 };

  beforeAll(async () => {
    database = await scratchDatabase(kind);
    config = loadConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'silent', STALE_AFTER: 'PT1H' });
    store = await openStore(config.databaseUrl, storeOptions(config));
    const polled = store.polled;
    // Counts what the front answers from, to show the requests really went that way.
    const counted: PolledReads = {
      lastMeasurement: (id) => (calls.lastMeasurement++, polled.lastMeasurement(id)),
      actuator: (id) => (calls.actuator++, polled.actuator(id)),
    };
    const now = () => NOW;
    // One bus: both apps hear every commit, as one process would (SQLite serves one process).
    const bus = changeBus();
    hot = await buildApp(config, { ...store, polled: counted }, { now, logger: false, bus });
    plain = await buildApp(config, store, { now, logger: false, hotReads: false, bus });
    hotUrl = await listen(hot);
    plainUrl = await listen(plain);

    const post = (path: string, body: unknown) =>
      fetch(plainUrl + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await post('/measurements', [
      { sensor_id: 1, value: 6.4, timestamp: new Date(NOW - 60_000).toISOString() },
      { sensor_id: 2, value: 4.2, timestamp: new Date(NOW - 2 * 3600_000).toISOString() },
    ]);
    const pump = {
      actuator_type: 'base_pump',
      condition_value: 5,
      activation_condition: 'low',
      activation_period: 0,
      activation_duration: 3,
    };
    await post('/actuators', { ...pump, sensor_id: 1 }); // 2: fresh reading, condition false
    await post('/actuators', { ...pump, sensor_id: 2 }); // 3: stale reading
    await post('/actuators', { ...pump, sensor_id: 3 }); // 4: no reading
    await post('/actuators', { ...pump, sensor_id: 1, enabled: false }); // 5: disabled
    await post('/actuators', { ...pump, sensor_id: 1, activation_condition: 'high', activation_duration: 2.5 }); // 6: activates
    // Its dose claimed once: from then on both ways answer the same `claimed` (the clock stands still).
    expect(((await (await fetch(`${plainUrl}/actuators/6/state`)).json()) as { activate: boolean }).activate).toBe(true);
  });
  afterAll(async () => {
    await hot?.close();
    await plain?.close();
    await store?.close();
    await database?.drop();
  });

  const paths = [
    '/measurements/1/last',
    '/measurements/1/last/',
    '/measurements/01/last',
    '/measurements/2/last',
    '/measurements/3/last',
    '/measurements/999/last',
    '/measurements/2147483648/last',
    '/measurements/abc/last',
    '/measurements/1/last?unused=1',
    '/actuators/1/state',
    '/actuators/2/state',
    '/actuators/3/state/',
    '/actuators/4/state',
    '/actuators/5/state',
    '/actuators/6/state',
    '/actuators/999/state',
    '/actuators/-1/state',
  ];

  it.each(paths)('GET %s', async (path) => {
    const [fromFront, fromRoute] = await Promise.all([fetch(hotUrl + path), fetch(plainUrl + path)]);
    expect(fromFront.status).toBe(fromRoute.status);
    expect(await fromFront.text()).toBe(await fromRoute.text());
    const headers = (r: Response) => [...r.headers].filter(([name]) => name !== 'date');
    expect(headers(fromFront)).toEqual(headers(fromRoute));
  });

  it('answered the polls in front of the pipeline', async () => {
    calls.lastMeasurement = 0;
    calls.actuator = 0;
    expect((await fetch(`${hotUrl}/measurements/1/last`)).status).toBe(200);
    expect((await fetch(`${hotUrl}/actuators/6/state`)).status).toBe(200);
    // The state is decided on the inputs kept in memory: no store read for it at all.
    expect(calls).toEqual({ lastMeasurement: 1, actuator: 0 });
    const decision = await (await fetch(`${hotUrl}/actuators/6/state`)).json();
    expect(decision).toMatchObject({ activate: false, reason: 'claimed', duration: 2.5, period: 0 });
  });

  it('sends every request through the pipeline when tokens are checked', async () => {
    const enforced = await buildApp(
      { ...config, authMode: 'enforced' },
      {
        ...store,
        polled: {
          lastMeasurement: () => {
            throw new Error('not here');
          },
          actuator: () => {
            throw new Error('not here');
          },
        },
      },
      { now: () => NOW, logger: false },
    );
    try {
      const url = await listen(enforced);
      expect((await fetch(`${url}/measurements/1/last`)).status).toBe(401);
      expect((await fetch(`${url}/actuators/6/state`)).status).toBe(401);
    } finally {
      await enforced.close();
    }
  });
});

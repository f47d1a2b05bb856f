import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { basePumpBody, phSensorBody } from '../helpers/bodies.js';
import { databaseProxy } from '../helpers/db-proxy.js';
import { eventually } from '../helpers/eventually.js';
import { startService, type TestService } from '../helpers/service.js';
import { mountSmallDisk, type SmallDisk } from '../helpers/small-disk.js';
import { type ScratchDatabase, scratchDatabase } from '../helpers/stores.js';

/**
 * When the dose cannot be committed, the pump waits (docs/safety.md "A dose is a claim"): a full
 * disk, a locked SQLite file, PostgreSQL refusing or not answering. Each answers `activate:
 * false`, reason `store_unavailable` (never a 500, never a dose the store did not record),
 * `/healthz` says `"dosing": "held"`, and the next read after the store answers again doses.
 */

/** A pump made two minutes before the reading that makes it want to run. */
async function thirstyPump(service: TestService): Promise<number> {
  const at = Date.now();
  service.clock.now = at - 120_000;
  const sensor = (await service.post('/sensors/', phSensorBody)).body.sensor_id as number;
  const res = await service.post('/actuators', basePumpBody(sensor));
  expect(res.status).toBe(200);
  service.clock.now = at;
  expect((await service.post('/measurements', { sensor_id: sensor, value: 5.0 })).status).toBe(200);
  return res.body.actuator_id as number;
}

/** The pump's decision as its tank's status shows it: a read that claims no dose. */
const reasonAt = async (service: TestService, id: number) =>
  (await service.get(`/prototypes/${phSensorBody.prototype_id}/status`)).body.actuators.find(
    (a: { actuator: { actuator_id: number } }) => a.actuator.actuator_id === id,
  )?.state.reason as string | undefined;

const state = async (service: TestService, id: number) => {
  const res = await service.get(`/actuators/${id}/state`);
  expect(res.status).toBe(200);
  return res.body;
};

describe('SQLite: a refused claim holds the pump', () => {
  let service: TestService;
  let disk: SmallDisk | undefined;
  afterEach(async () => {
    disk?.free();
    await service?.close();
    disk?.remove();
    disk = undefined;
  });

  it('a locked file: store_unavailable and dosing held, no dose recorded; doses again once the lock is gone', async () => {
    service = await startService('sqlite');
    const id = await thirstyPump(service);
    const other = new SQLite(service.config.databaseUrl.replace(/^sqlite:/, ''));
    try {
      // Another process holds the write lock (a backup tool, a second service on the same file).
      other.exec('begin immediate');
      for (let i = 0; i < 2; i++)
        expect(await state(service, id)).toMatchObject({ activate: false, reason: 'store_unavailable', duration: 3 });
      expect((await service.get('/healthz')).body).toMatchObject({ status: 'ok', dosing: 'held' });
      expect((await service.get(`/actuators/${id}/activations`)).body).toEqual([]);
      other.exec('rollback');
    } finally {
      other.close();
    }
    expect(await state(service, id)).toMatchObject({ activate: true, reason: 'ok' });
    expect((await service.get('/healthz')).body.dosing).toBe('ok');
    expect((await service.get(`/actuators/${id}/activations`)).body).toHaveLength(1);
  }, 60_000);

  it('a full disk: store_unavailable and dosing held, no dose recorded; doses again once space is back', async () => {
    disk = mountSmallDisk(8);
    const file = join(disk.dir, 'sensorhub.db');
    service = await startService('sqlite', { database: { url: `sqlite:${file}`, drop: async () => {} } });
    const id = await thirstyPump(service);
    // The write-ahead log emptied to nothing, so the claim's write has to grow a file.
    const other = new SQLite(file);
    other.pragma('wal_checkpoint(TRUNCATE)');
    other.close();
    disk.fill();
    for (let i = 0; i < 2; i++) expect(await state(service, id)).toMatchObject({ activate: false, reason: 'store_unavailable' });
    expect((await service.get('/healthz')).body.dosing).toBe('held');
    disk.free();
    expect((await service.get(`/actuators/${id}/activations`)).body).toEqual([]);
    expect(await state(service, id)).toMatchObject({ activate: true, reason: 'ok' });
    expect((await service.get('/healthz')).body.dosing).toBe('ok');
    expect((await service.get(`/actuators/${id}/activations`)).body).toHaveLength(1);
  }, 60_000);
});

describe.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL: a refused or unanswered claim holds the pump', () => {
  let database: ScratchDatabase;
  let service: TestService;
  let proxy: ReturnType<typeof databaseProxy>;
  beforeAll(async () => {
    database = await scratchDatabase('postgres');
    proxy = databaseProxy(new URL(database.url));
    await proxy.open();
    service = await startService('postgres', {
      database: { url: proxy.via(database.url), drop: async () => {} },
      env: { DATABASE_CONNECT_TIMEOUT_MS: '1000', DATABASE_STATEMENT_TIMEOUT_MS: '2000' },
    });
  });
  afterAll(async () => {
    await proxy?.cut();
    await service?.close();
    await database?.drop();
  });

  it('refused: store_unavailable, never a 500, dosing held; doses again once it answers', async () => {
    const id = await thirstyPump(service);
    await proxy.cut();
    for (let i = 0; i < 3; i++) expect(await state(service, id)).toMatchObject({ activate: false, reason: 'store_unavailable' });
    const health = await service.get('/healthz');
    expect(health.body.dosing).toBe('held');
    await proxy.open();
    const answer = await eventually(
      async () => {
        const body = await state(service, id);
        return body.reason !== 'store_unavailable' && body;
      },
      'a claim to commit again',
      30_000,
    );
    expect(answer).toMatchObject({ activate: true, reason: 'ok' });
    expect((await service.get('/healthz')).body.dosing).toBe('ok');
    expect((await service.get(`/actuators/${id}/activations`)).body).toHaveLength(1);
  }, 60_000);

  it('black-holed: store_unavailable within the claim wait, no activate: true; doses again once it answers', async () => {
    const id = await thirstyPump(service);
    proxy.silence();
    try {
      for (let i = 0; i < 2; i++) expect(await state(service, id)).toMatchObject({ activate: false, reason: 'store_unavailable' });
      expect((await service.get('/healthz')).body.dosing).toBe('held');
    } finally {
      proxy.speak();
    }
    const answer = await eventually(
      async () => {
        const body = await state(service, id);
        return body.reason !== 'store_unavailable' && body;
      },
      'a claim to commit again',
      30_000,
    );
    // The claim the silence swallowed may have committed late: then this read is told `claimed`, and that dose counts.
    expect(['ok', 'claimed']).toContain(answer.reason);
    const doses = (await service.get(`/actuators/${id}/activations`)).body as unknown[];
    expect(doses).toHaveLength(1);
  }, 90_000);
});

describe.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL: two instances, one pump', () => {
  let first: TestService;
  let second: TestService;
  beforeAll(async () => {
    first = await startService('postgres');
    second = await startService('postgres', { database: { url: first.database.url, drop: async () => {} } });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('answers activate: true to one read of all those through both instances at once; the others are told claimed', async () => {
    const id = await thirstyPump(first);
    second.clock.now = first.clock.now;
    // The reading reaches the other instance through the relay, a moment after it is committed: until
    // then that one rightly holds the pump (no_measurement). Wait for it, through a read that claims nothing.
    await eventually(async () => (await reasonAt(second, id)) === 'ok', 'the reading to reach the other instance');
    const reads = await Promise.all(Array.from({ length: 10 }, (_, i) => state(i % 2 ? second : first, id)));
    expect(reads.filter((r) => r.activate)).toHaveLength(1);
    expect(reads.filter((r) => !r.activate).every((r) => r.reason === 'claimed')).toBe(true);
    // Either instance, later: still claimed until the report.
    for (const instance of [first, second]) expect(await state(instance, id)).toMatchObject({ activate: false, reason: 'claimed' });
    expect((await second.request('PATCH', `/actuators/${id}/last_activated`)).status).toBe(200);
    const doses = (await first.get(`/actuators/${id}/activations`)).body;
    expect(doses).toEqual([expect.objectContaining({ reported: true })]);
  }, 60_000);
});

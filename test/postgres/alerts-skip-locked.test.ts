import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateSensor } from '../../src/alerts/evaluate.js';
import { openStore, type Store } from '../../src/store/index.js';
import { type ScratchDatabase, scratchDatabase } from '../helpers/stores.js';

const SETTINGS = { staleAfterMs: 1000, clearAfterMs: 60_000, webhookUrls: [] };

describe.runIf(process.env.TEST_DATABASE_URL)('time-driven alert checks across processes', () => {
  let database: ScratchDatabase;
  let store: Store;
  let other: pg.Client;
  beforeAll(async () => {
    database = await scratchDatabase('postgres');
    store = await openStore(database.url);
    other = new pg.Client({ connectionString: database.url });
    await other.connect();
  });
  afterAll(async () => {
    await other?.end();
    await store?.close();
    await database?.drop();
  });

  it('a check another process is making is skipped, not waited for; an evaluation for a write waits its turn', async () => {
    const now = Date.now();
    await store.ingest([{ sensor_id: 1, value: 2, timestamp: now - 5000 }]);
    expect((await evaluateSensor(store, 1, now, SETTINGS)).events.map((e) => e.event)).toEqual(['raised']);
    // Another process holds the sensor's level row, as its own evaluation does.
    await other.query('begin');
    await other.query('select * from alert_levels where sensor_id = 1 for update');
    const skipped = await evaluateSensor(store, 1, now, SETTINGS, [], true);
    expect(skipped).toMatchObject({ exists: true, busy: true, events: [] });
    let waited = false;
    const waiting = evaluateSensor(store, 1, now, SETTINGS).then((r) => ((waited = true), r));
    await new Promise((resolve) => setImmediate(resolve));
    expect(waited).toBe(false);
    await other.query('commit');
    expect((await waiting).busy).toBeUndefined();
  });
});

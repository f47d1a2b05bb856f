import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import { type ScratchDatabase, scratchDatabase, dbOf } from '../helpers/stores.js';

describe.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL ingest under concurrency (group commit)', () => {
  let database: ScratchDatabase;
  let store: Store;
  beforeAll(async () => {
    database = await scratchDatabase('postgres');
    store = await openStore(database.url);
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  it('answers each of many concurrent requests with its own rows, and fails only the faulty one', async () => {
    const requests = Array.from({ length: 300 }, (_, i) =>
      Array.from({ length: 1 + (i % 3) }, (_, k) => ({ sensor_id: 1 + ((i + k) % 3), value: i + k / 10, timestamp: 1_000_000 + i })),
    );
    const faulty = [
      { sensor_id: 1, value: -1, timestamp: 5 },
      { sensor_id: 999, value: -2, timestamp: 5 },
    ];
    const results = await Promise.allSettled([...requests.map((rows) => store.ingest(rows)), store.ingest(faulty)]);

    const refused = results.pop();
    expect(refused?.status).toBe('rejected');
    results.forEach((result, i) => {
      expect(result.status).toBe('fulfilled');
      const stored = (result as PromiseFulfilledResult<Awaited<ReturnType<Store['ingest']>>>).value;
      expect(stored.map(({ sensor_id, value, timestamp }) => ({ sensor_id, value, timestamp }))).toEqual(requests[i]);
    });
    const answered = results.flatMap((r) => (r as PromiseFulfilledResult<Awaited<ReturnType<Store['ingest']>>>).value);
    const rows = (
      await sql<{
        measurement_id: number;
        sensor_id: number;
        value: number;
      }>`select measurement_id, sensor_id, value from measurements order by measurement_id`.execute(dbOf(store))
    ).rows;
    // Every acknowledged row is stored under the id it was answered with; nothing of the faulty request is.
    expect(rows).toHaveLength(answered.length);
    expect(new Map(rows.map((r) => [r.measurement_id, r.value]))).toEqual(new Map(answered.map((m) => [m.measurement_id, m.value])));
    expect(rows.some((r) => r.value < 0)).toBe(false);
  });
});

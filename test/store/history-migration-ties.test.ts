import { describe, expect, it } from 'vitest';
import { bucketsOf } from '../../src/domain/bucket-fold.js';
import { KEPT_SIZES } from '../../src/domain/bucket-sizes.js';
import { openStore } from '../../src/store/index.js';
import type { StoreKind } from '../../src/store/dialect.js';
import { rawRows, storeBeforeHistory, storedBuckets } from '../helpers/history.js';
import { storeKinds, dbOf, dialectOf } from '../helpers/stores.js';

const AT = Date.UTC(2026, 10, 22, 12);
const MINUTE = 60_000;

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The upgrade computes the buckets in the store; they must be the ones the summary's total orders
 * define where those orders are decided by their later keys: equal values (the earliest, then the
 * lowest id, is the minimum and the maximum), equal timestamps (the id decides first and last),
 * rows stored out of time order, and timestamps before 1970. Values are quarters, so every sum is
 * exact whatever order it is added in.
 */
describe.each(storeKinds())('the history migration on ties (%s)', (kind) => {
  it('gives each bucket the points the total orders pick', () => migratesExactly(kind, false));
  // Past SQLite's packed keys (2^40) the rows are walked in JavaScript; PostgreSQL's arrays hold such ids exactly.
  it('does so with ids of 2^40 and more', () => migratesExactly(kind, true));
});

async function migratesExactly(kind: StoreKind, hugeIds: boolean): Promise<void> {
  const { database, db, dialect } = await storeBeforeHistory(kind, [1, 2, 3]);
  try {
    const random = seeded(20261122);
    const rows = [];
    // Sensor 1: three days of readings on whole minutes (many share a timestamp), three values only.
    for (let i = 0; i < 4000; i++) {
      const timestamp = AT - Math.floor(random() * 3 * 24 * 60) * MINUTE;
      rows.push({ sensor_id: 1, value: [-1.25, 0.5, 2][Math.floor(random() * 3)], timestamp });
    }
    // Sensor 2: around the epoch, where flooring must not truncate towards zero.
    for (let i = 0; i < 1500; i++) {
      rows.push({ sensor_id: 2, value: Math.floor(random() * 8) / 4, timestamp: Math.floor((random() - 0.5) * 2 * 3600_000) });
    }
    // Sensor 3: one reading.
    rows.push({ sensor_id: 3, value: 7.75, timestamp: AT });
    for (let i = 0; i < rows.length; i += 500)
      await db
        .insertInto('measurements')
        .values(rows.slice(i, i + 500).map((r) => ({ ...r, timestamp: dialect.time(r.timestamp) })))
        .execute();
    if (hugeIds) {
      await db
        .insertInto('measurements')
        .values([
          { measurement_id: 2 ** 40 + 1, sensor_id: 1, value: -1.25, timestamp: dialect.time(AT - 60 * MINUTE) },
          { measurement_id: 2 ** 40 + 2, sensor_id: 3, value: 7.75, timestamp: dialect.time(AT) },
        ])
        .execute();
    }
    await db.destroy();

    const store = await openStore(database.url, { seedDefaults: false });
    try {
      const raw = await rawRows(dbOf(store), dialectOf(store));
      for (const sensorId of [1, 2, 3]) {
        const mine = raw.filter((r) => r.sensor_id === sensorId).map((r) => ({ ...r, measurement_id: Number(r.measurement_id) }));
        for (const size of KEPT_SIZES) {
          expect(await storedBuckets(dbOf(store), sensorId, size)).toEqual(bucketsOf(mine, size));
        }
      }
    } finally {
      await store.close();
    }
  } finally {
    await database.drop();
  }
}

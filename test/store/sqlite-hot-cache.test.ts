import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import { sqliteHotCache } from '../../src/store/sqlite/hot-cache.js';
import { sqliteReader } from '../../src/store/sqlite/reader.js';
import { walProbe } from '../../src/store/sqlite/wal-probe.js';
import { type ScratchDatabase, scratchDatabase, dbOf } from '../helpers/stores.js';

/**
 * The newest measurement and the actuators are served from memory on SQLite; these tests change
 * the data every way it can change and check that no read ever answers what was there before.
 */
describe('SQLite hot-read cache', () => {
  let database: ScratchDatabase;
  let store: Store;
  /** Another connection to the same file: what another program (the sqlite3 tool) would do. */
  let other: SQLite.Database;
  beforeEach(async () => {
    database = await scratchDatabase('sqlite');
    store = await openStore(database.url);
    other = new SQLite(database.url.replace(/^sqlite:/, ''));
  });
  afterEach(async () => {
    other.close();
    await store.close();
    await database.drop();
  });

  const lastValue = async (sensorId: number) => (await store.measurements.last(sensorId))?.value;
  /** Another program's commit shows from the next turn of the event loop (an HTTP request always comes in a later one). */
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

  it('follows ingest: a newer measurement replaces the newest, an older one does not', async () => {
    expect(await lastValue(1)).toBeUndefined();
    await store.ingest([{ sensor_id: 1, value: 1, timestamp: 2_000 }]);
    expect(await lastValue(1)).toBe(1);
    await store.ingest([{ sensor_id: 1, value: 2, timestamp: 1_000 }]);
    expect(await lastValue(1)).toBe(1);
    await store.ingest([
      { sensor_id: 1, value: 3, timestamp: 3_000 },
      { sensor_id: 2, value: 4, timestamp: 3_000 },
    ]);
    expect(await lastValue(1)).toBe(3);
    expect(await lastValue(2)).toBe(4);
    // Same timestamp: the highest id is the newest.
    await store.ingest([{ sensor_id: 1, value: 5, timestamp: 3_000 }]);
    expect(await lastValue(1)).toBe(5);
  });

  it('sees what another connection commits from the next turn of the event loop', async () => {
    await store.ingest([{ sensor_id: 1, value: 1, timestamp: 1_000 }]);
    expect(await lastValue(1)).toBe(1);
    other.prepare('insert into measurements (sensor_id, value, timestamp) values (1, 9, 5000)').run();
    await nextTurn();
    expect(await lastValue(1)).toBe(9);
    other.prepare('delete from measurements').run();
    await nextTurn();
    expect(await lastValue(1)).toBeUndefined();

    const actuator = await store.actuators.get(1);
    // The seeded pump comes disabled: another connection enables it.
    expect(actuator?.enabled).toBe(false);
    other.prepare('update actuators set enabled = 1, condition_value = 7.5 where actuator_id = 1').run();
    await nextTurn();
    expect(await store.actuators.get(1)).toMatchObject({ enabled: true, condition_value: 7.5 });
    other.prepare('delete from actuators where actuator_id = 1').run();
    await nextTurn();
    expect(await store.actuators.get(1)).toBeUndefined();
  });

  it('sees writes made through the query builder, raw statements included', async () => {
    await store.ingest([{ sensor_id: 1, value: 1, timestamp: 1_000 }]);
    expect(await lastValue(1)).toBe(1);
    await sql`delete from measurements where sensor_id = 1`.execute(dbOf(store));
    expect(await lastValue(1)).toBeUndefined();
    await store.measurements.insertSeries(1, Float64Array.of(4_000), Float64Array.of(6.5));
    expect(await lastValue(1)).toBe(6.5);

    expect((await store.actuators.get(1))?.last_activated).not.toBe(123_456);
    await store.actuators.markActivated(1, 123_456);
    expect((await store.actuators.get(1))?.last_activated).toBe(123_456);
  });

  it('does not keep what was read while a transaction was open once it commits', async () => {
    await store.ingest([{ sensor_id: 1, value: 1, timestamp: 1_000 }]);
    let readDuring: number | undefined;
    await store.transaction(async (tx) => {
      await tx.measurements.deleteAll();
      // Another request reads while the transaction is open: it sees the committed state.
      readDuring = await lastValue(1);
      await tx.measurements.insertSeries(1, Float64Array.of(2_000), Float64Array.of(2));
    });
    expect(readDuring).toBe(1);
    expect(await lastValue(1)).toBe(2);
  });

  it('sees another connection commit while a transaction of its own is open', async () => {
    await store.ingest([{ sensor_id: 1, value: 1, timestamp: 1_000 }]);
    expect(await lastValue(1)).toBe(1);
    await store.transaction(async (tx) => {
      // The transaction has read, so its connection now holds a snapshot from before the commit below.
      await tx.sensors.get(1);
      expect(await lastValue(1)).toBe(1);
      other.prepare('insert into measurements (sensor_id, value, timestamp) values (1, 9, 5000)').run();
      expect(await lastValue(1)).toBe(9);
    });
    expect(await lastValue(1)).toBe(9);
  });

  it('does not keep what was read before a transaction that rolled back changed nothing', async () => {
    await store.ingest([{ sensor_id: 1, value: 1, timestamp: 1_000 }]);
    await expect(
      store.transaction(async (tx) => {
        await tx.measurements.deleteAll();
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await lastValue(1)).toBe(1);
  });
});

describe('SQLite hot-read cache, reads it saves', () => {
  let database: ScratchDatabase;
  let store: Store;
  let writer: SQLite.Database;
  beforeEach(async () => {
    database = await scratchDatabase('sqlite');
    store = await openStore(database.url);
    await store.ingest([{ sensor_id: 1, value: 1, timestamp: 1_000 }]);
    writer = new SQLite(database.url.replace(/^sqlite:/, ''));
  });
  afterEach(async () => {
    writer.close();
    await store.close();
    await database.drop();
  });

  function countingCache() {
    const reader = sqliteReader(database.url.replace(/^sqlite:/, ''));
    const queries = { count: 0 };
    const counted = {
      ...reader,
      lastMeasurement(sensorId: number) {
        queries.count++;
        return reader.lastMeasurement(sensorId);
      },
    };
    const file = database.url.replace(/^sqlite:/, '');
    return { cache: sqliteHotCache(writer, counted, walProbe(file)), queries, close: () => reader.close() };
  }

  it('answers repeated reads from memory until the data changes', async () => {
    const { cache, queries, close } = countingCache();
    try {
      for (let i = 0; i < 5; i++) expect(cache.lastMeasurement(1)?.value).toBe(1);
      expect(queries.count).toBe(1);
      // A commit on the cache's own connection that it was told about: still no query.
      cache.committed([{ measurement_id: 99, sensor_id: 1, value: 2, timestamp: 2_000 }]);
      expect(cache.lastMeasurement(1)?.value).toBe(2);
      expect(queries.count).toBe(1);
      // A commit by another connection (the store's own is another one for this cache): read again.
      await store.ingest([{ sensor_id: 1, value: 3, timestamp: 3_000 }]);
      await new Promise((resolve) => setImmediate(resolve));
      expect(cache.lastMeasurement(1)?.value).toBe(3);
      expect(queries.count).toBe(2);
      // Reads in one turn share one check of what other connections did.
      for (let i = 0; i < 5; i++) expect(cache.lastMeasurement(1)?.value).toBe(3);
      expect(queries.count).toBe(2);
    } finally {
      close();
    }
  });

  it('keeps a bounded number of entries: ids nobody has do not grow it', () => {
    const { cache, queries, close } = countingCache();
    try {
      cache.lastMeasurement(1);
      for (let id = 1_000; id < 21_000; id++) expect(cache.lastMeasurement(id)).toBeUndefined();
      const before = queries.count;
      cache.lastMeasurement(1);
      // Sensor 1's entry went when the map was emptied at its bound, so it was read again.
      expect(queries.count).toBe(before + 1);
    } finally {
      close();
    }
  });
});

describe('WAL probe', () => {
  it('reads the same header until some connection commits', async () => {
    const database = await scratchDatabase('sqlite');
    const store = await openStore(database.url);
    const file = database.url.replace(/^sqlite:/, '');
    const other = new SQLite(file);
    try {
      const probe = walProbe(file);
      expect(probe).toBeDefined();
      expect(probe?.unchanged()).toBe(false); // nothing seen yet
      probe?.markSeen();
      expect(probe?.unchanged()).toBe(true);
      expect(probe?.unchanged()).toBe(true);
      other.prepare('insert into measurements (sensor_id, value, timestamp) values (1, 1, 1)').run();
      expect(probe?.unchanged()).toBe(false);
      probe?.markSeen();
      expect(probe?.unchanged()).toBe(true);
      await store.ingest([{ sensor_id: 1, value: 2, timestamp: 2 }]);
      expect(probe?.unchanged()).toBe(false);
    } finally {
      other.close();
      await store.close();
      await database.drop();
    }
  });

  it('is absent for a file without a shared-memory index', () => {
    expect(walProbe('/nonexistent/sensorhub.db')).toBeUndefined();
  });
});

import SQLite from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import { sqliteGroupCommit } from '../../src/store/sqlite/group-commit.js';
import { type ScratchDatabase, scratchDatabase } from '../helpers/stores.js';

describe('SQLite group commit', () => {
  let database: ScratchDatabase;
  let store: Store;
  let sqlite: SQLite.Database;
  beforeEach(async () => {
    database = await scratchDatabase('sqlite');
    store = await openStore(database.url);
    sqlite = new SQLite(database.url.replace(/^sqlite:/, ''));
    sqlite.pragma('foreign_keys = ON');
  });
  afterEach(async () => {
    sqlite.close();
    await store.close();
    await database.drop();
  });

  const count = () => (sqlite.prepare('select count(*) as n from measurements').get() as { n: number }).n;

  it('answers each of many concurrent inserts with its own rows and ids', async () => {
    const group = sqliteGroupCommit(sqlite);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => group.insert([{ sensor_id: 1 + (i % 3), value: i, timestamp: 1_000 + i }])),
    );
    expect(results.map((r) => r[0].value)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    const ids = results.map((r) => r[0].measurement_id);
    expect(new Set(ids).size).toBe(50);
    expect(count()).toBe(50);
    const row = sqlite.prepare('select * from measurements where measurement_id = ?').get(ids[7]) as Record<string, number>;
    expect(row).toEqual({ measurement_id: ids[7], sensor_id: 2, value: 7, timestamp: 1_007 });
  });

  it('answers a large batch with the id each row was stored under', async () => {
    const group = sqliteGroupCommit(sqlite);
    const rows = Array.from({ length: 150 }, (_, i) => ({ sensor_id: 1 + (i % 3), value: i / 10, timestamp: 5_000 + i }));
    const [a, b] = await Promise.all([group.insert(rows), group.insert(rows.slice(0, 70))]);
    const lookup = sqlite.prepare('select sensor_id, value, timestamp from measurements where measurement_id = ?');
    for (const stored of [...a, ...b]) {
      expect(lookup.get(stored.measurement_id)).toEqual({ sensor_id: stored.sensor_id, value: stored.value, timestamp: stored.timestamp });
    }
    expect(a.map((m) => m.value)).toEqual(rows.map((r) => r.value));
    expect(new Set([...a, ...b].map((m) => m.measurement_id)).size).toBe(220);
  });

  it('gives each sensor’s rows ascending ids in the order given, across the requests of one commit', async () => {
    const group = sqliteGroupCommit(sqlite);
    const request = (first: number) =>
      Array.from({ length: 30 }, (_, i) => ({ sensor_id: 1 + (i % 3), value: first + i, timestamp: 9_000 }));
    const results = await Promise.all([group.insert(request(0)), group.insert(request(100)), group.insert(request(200))]);
    const stored = results.flat();
    expect(stored.map((m) => m.value)).toEqual([...request(0), ...request(100), ...request(200)].map((r) => r.value));
    for (const sensorId of [1, 2, 3]) {
      const mine = stored.filter((m) => m.sensor_id === sensorId);
      const ids = mine.map((m) => m.measurement_id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      // The newest of equal timestamps is the one given last.
      const newest = sqlite
        .prepare('select value from measurements where sensor_id = ? order by timestamp desc, measurement_id desc limit 1')
        .get(sensorId) as { value: number };
      expect(newest.value).toBe(mine[mine.length - 1].value);
    }
  });

  it('rejects only the request that fails, keeping the others of the same commit', async () => {
    const group = sqliteGroupCommit(sqlite);
    const good = group.insert([{ sensor_id: 1, value: 1, timestamp: 1 }]);
    const bad = group.insert([
      { sensor_id: 2, value: 2, timestamp: 2 },
      { sensor_id: 999, value: 3, timestamp: 3 },
    ]);
    const alsoGood = group.insert([{ sensor_id: 3, value: 4, timestamp: 4 }]);
    await expect(good).resolves.toHaveLength(1);
    await expect(bad).rejects.toThrow(/FOREIGN KEY/);
    await expect(alsoGood).resolves.toHaveLength(1);
    expect((sqlite.prepare('select value from measurements order by value').all() as { value: number }[]).map((r) => r.value)).toEqual([
      1, 4,
    ]);
  });

  it('waits while another transaction is open on the connection', async () => {
    const group = sqliteGroupCommit(sqlite);
    sqlite.exec('begin');
    const pending = group.insert([{ sensor_id: 1, value: 1, timestamp: 1 }]);
    await new Promise((r) => setTimeout(r, 20));
    sqlite.exec('rollback');
    await expect(pending).resolves.toHaveLength(1);
    expect(count()).toBe(1);
  });
});

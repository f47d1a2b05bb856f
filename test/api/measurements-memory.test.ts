import { readFileSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { spawnService } from '../helpers/process.js';
import { type ScratchDatabase, scratchDatabase } from '../helpers/stores.js';

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/**
 * A window of a sensor with ten times as many rows as another costs no more memory: the answer
 * is streamed as it is read. SQLite only: the process under test is the service, not the store.
 */
describe('long window memory', () => {
  let database: ScratchDatabase;
  const small = 60_000;
  beforeAll(async () => {
    database = await scratchDatabase('sqlite');
    await (await openStore(database.url)).close();
    const db = new SQLite(database.url.replace(/^sqlite:/, ''));
    const insert = db.prepare('insert into measurements (sensor_id, value, timestamp) values (?, ?, ?)');
    db.transaction(() => {
      for (let i = 0; i < small; i++) insert.run(1, 1.5 + i / 1e6, 1_700_000_000_000 + i * 1000);
      for (let i = 0; i < 10 * small; i++) insert.run(2, 6.5 + i / 1e6, 1_700_000_000_000 + i * 1000);
    })();
    db.close();
  }, 60_000);
  afterAll(() => database?.drop());

  it('answers a window larger than the heap the process may use, in order', { timeout: 60_000 }, async () => {
    // The large answer is about 50 MB of JSON: held whole (objects, then text), it would not fit.
    // The young generation is capped too, so that its growth under load cannot pass for a held answer.
    const service = await spawnService({ DATABASE_URL: database.url, NODE_OPTIONS: '--max-old-space-size=40 --max-semi-space-size=4' });
    try {
      const windowOf = async (sensorId: number) => {
        const before = rssMb(service.child.pid!);
        let peak = before;
        let bytes = 0;
        let rows = 0;
        let last = 0;
        const res = await fetch(`${service.url}/measurements/${sensorId}?start_time=2023-01-01T00:00:00Z`);
        expect(res.status).toBe(200);
        for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
          bytes += chunk.length;
          for (let i = chunk.indexOf(123); i !== -1; i = chunk.indexOf(123, i + 1)) rows++;
          last = chunk[chunk.length - 1];
          peak = Math.max(peak, rssMb(service.child.pid!));
        }
        return { growth: peak - before, bytes, rows, last };
      };
      const smallRun = await windowOf(1);
      const largeRun = await windowOf(2);
      expect(smallRun.rows).toBe(small);
      expect(largeRun.rows).toBe(10 * small);
      expect(largeRun.last).toBe(']'.charCodeAt(0));
      expect(largeRun.bytes / 2 ** 20).toBeGreaterThan(45);
      expect(service.child.exitCode).toBeNull();
      // Holding the answer would take at least its size; what grows is the young generation of the
      // heap (up to a few tens of MB under load), the same for ten times fewer rows.
      expect(largeRun.growth).toBeLessThan(largeRun.bytes / 2 ** 20);
      expect(largeRun.growth).toBeLessThan(smallRun.growth + 30);
    } finally {
      await service.stop();
    }
  });
});

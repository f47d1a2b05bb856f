import { readFileSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { spawnService } from '../helpers/process.js';
import { type ScratchDatabase, scratchDatabase } from '../helpers/stores.js';

/** Rows for sensor 1 (small export) and sensor 2 (four times as many). */
async function fill(database: ScratchDatabase, small: number): Promise<void> {
  await (await openStore(database.url)).close();
  const db = new SQLite(database.url.replace(/^sqlite:/, ''));
  const insert = db.prepare('insert into measurements (sensor_id, value, timestamp) values (?, ?, ?)');
  db.transaction(() => {
    for (let i = 0; i < small; i++) insert.run(1, 1.5 + i / 1e6, 1_700_000_000_000 + i);
    for (let i = 0; i < 4 * small; i++) insert.run(2, 6.5 + i / 1e6, 1_700_000_000_000 + i);
  })();
  db.close();
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

describe('CSV export memory', () => {
  let database: ScratchDatabase;
  const small = 250_000;
  beforeAll(async () => {
    database = await scratchDatabase('sqlite');
    await fill(database, small);
  }, 120_000);
  afterAll(() => database?.drop());

  it('streams an export far larger than the memory the process may use', { timeout: 120_000 }, async () => {
    // A heap limit below the size of the large export: buffering it would crash the process. The
    // young generation is capped too, so that its growth under load cannot pass for a held export.
    const service = await spawnService({ DATABASE_URL: database.url, NODE_OPTIONS: '--max-old-space-size=40 --max-semi-space-size=4' });
    try {
      const exportOf = async (sensorId: number) => {
        const before = rssMb(service.child.pid!);
        let peak = before;
        let bytes = 0;
        let lines = 0;
        const res = await fetch(`${service.url}/measurements/export?sensor_id=${sensorId}`);
        for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
          bytes += chunk.length;
          for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
          peak = Math.max(peak, rssMb(service.child.pid!));
        }
        return { growth: peak - before, bytes, lines };
      };
      const smallRun = await exportOf(1);
      const largeRun = await exportOf(2);
      expect(smallRun.lines).toBe(small + 1);
      expect(largeRun.lines).toBe(4 * small + 1);
      expect(largeRun.bytes / 2 ** 20).toBeGreaterThan(45);
      expect(service.child.exitCode).toBeNull();
      // Resident memory grows by far less than the export's size, and no more for four times the rows.
      expect(largeRun.growth).toBeLessThan(largeRun.bytes / 2 ** 20 / 2);
      expect(largeRun.growth).toBeLessThan(smallRun.growth + 30);
    } finally {
      await service.stop();
    }
  });
});

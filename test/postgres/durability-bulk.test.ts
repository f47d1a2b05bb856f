import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY } from '../../src/domain/bucket-sizes.js';
import { requestJson, spawnService } from '../helpers/process.js';
import { type ScratchDatabase, scratchDatabase } from '../helpers/stores.js';

const iso = (t: number) => new Date(t).toISOString();

/** Single readings of unique values to one sensor until stopped; which were acknowledged. */
function ingest(url: string, sensorId: number) {
  const acknowledged: number[] = [];
  let next = 1;
  let running = true;
  const loops = Array.from({ length: 4 }, async () => {
    while (running) {
      const value = next++;
      try {
        const res = await fetch(`${url}/measurements`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ sensor_id: sensorId, value }),
        });
        await res.arrayBuffer();
        if (res.status === 200) acknowledged.push(value);
      } catch {
        return;
      }
    }
  });
  return {
    acknowledged,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

let databaseUrl = '';
async function query<T extends pg.QueryResultRow>(text: string, values: unknown[] = [], url = databaseUrl): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

describe.runIf(process.env.TEST_DATABASE_URL)('SIGKILL during PostgreSQL bulk work loses nothing', () => {
  let database: ScratchDatabase;
  beforeAll(async () => {
    database = await scratchDatabase('postgres');
    databaseUrl = database.url;
  });
  afterAll(() => database?.drop());

  it('during a COPY load of generated rows: acknowledged readings stay, the load is all there or not at all', async () => {
    const service = await spawnService({ DATABASE_URL: database.url });
    const traffic = ingest(service.url, 1);
    await new Promise((r) => setTimeout(r, 2000));
    // Generated rows for every sensor, beside the readings: killed while it loads.
    const generating = fetch(`${service.url}/Measurement/Random`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ nb_measurements: 300_000, replace: false }),
    }).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 1500));
    await service.stop('SIGKILL');
    await traffic.stop();
    await generating;

    const restarted = await spawnService({ DATABASE_URL: database.url });
    try {
      const stored = new Set(((await requestJson(`${restarted.url}/measurements/1`)).body as { value: number }[]).map((r) => r.value));
      expect(traffic.acknowledged.length).toBeGreaterThan(0);
      for (const value of traffic.acknowledged) expect(stored.has(value), `acknowledged ${value}`).toBe(true);
      // Sensors 2 and 3 have only generated rows: none, or their whole share, with buckets that count them.
      for (const sensorId of [2, 3]) {
        const rows = ((await requestJson(`${restarted.url}/measurements/${sensorId}`)).body as unknown[]).length;
        expect([0, 100_000]).toContain(rows);
        const days = (await requestJson(`${restarted.url}/measurements/${sensorId}/aggregate?bucket=1d&time_delta=P400D`)).body as {
          count: number;
        }[];
        expect(days.reduce((n, d) => n + d.count, 0)).toBe(rows);
      }
    } finally {
      await restarted.stop();
    }
  });

  it('during the drop of old day partitions: the next pass finishes what the killed one began, and readings stay', async () => {
    const now = Date.now();
    const seeding = await spawnService({ DATABASE_URL: database.url });
    const old = [];
    for (let d = 40; d >= 5; d--)
      for (let h = 0; h < 24; h += 6) old.push({ sensor_id: 2, value: d * 100 + h, timestamp: iso(now - d * DAY + h * 3_600_000) });
    expect((await requestJson(`${seeding.url}/measurements`, 'POST', old)).status).toBe(200);
    await seeding.stop();

    // Retention starts at once: killed while it detaches and drops days.
    const service = await spawnService({ DATABASE_URL: database.url, RETENTION_RAW: 'P3D' });
    const traffic = ingest(service.url, 1);
    await new Promise((r) => setTimeout(r, 300));
    await service.stop('SIGKILL');
    await traffic.stop();

    const restarted = await spawnService({ DATABASE_URL: database.url, RETENTION_RAW: 'P3D' });
    try {
      const cutoff = Math.floor((now - 3 * DAY) / DAY) * DAY;
      // A pass finishes it: the one at start, or, while the killed instance's lease on retention
      // has not run out yet, the next one a minute later. No day before the cutoff is left,
      // attached or not.
      await expect
        .poll(
          async () => {
            const tables = await query<{ relname: string }>(
              "select relname from pg_class where relkind = 'r' and relname ~ '^measurements_[0-9]{8}$'",
            );
            return tables.filter((t) => {
              const m = /(\d{4})(\d{2})(\d{2})$/.exec(t.relname)!;
              return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) < cutoff;
            }).length;
          },
          { timeout: 150_000, interval: 1000 },
        )
        .toBe(0);
      const dead = await query<{ n: string }>(
        "select coalesce(sum(n_dead_tup), 0) as n from pg_stat_user_tables where relname like 'measurements%'",
      );
      expect(Number(dead[0].n)).toBe(0);
      const stored = new Set(((await requestJson(`${restarted.url}/measurements/1`)).body as { value: number }[]).map((r) => r.value));
      for (const value of traffic.acknowledged) expect(stored.has(value), `acknowledged ${value}`).toBe(true);
      // The days that went keep their buckets; the raw rows left are those since the cutoff.
      const raw = (await requestJson(`${restarted.url}/measurements/2`)).body as { timestamp: string }[];
      expect(raw.every((r) => Date.parse(r.timestamp) >= cutoff)).toBe(true);
      const days = (await requestJson(`${restarted.url}/measurements/2/aggregate?bucket=1d&time_delta=P60D`)).body as { count: number }[];
      expect(days.reduce((n, d) => n + d.count, 0)).toBe(old.length);
    } finally {
      await restarted.stop();
    }
  }, 300_000);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServiceProcess, spawnService } from '../helpers/process.js';
import { type ScratchDatabase, scratchDatabase, storeKinds } from '../helpers/stores.js';

interface Sent {
  values: number[];
  acknowledged: boolean;
}

/**
 * Concurrent writers posting single measurements and batches with unique values until the
 * process is stopped; records which requests were acknowledged with a 200.
 */
function ingestUntilStopped(service: ServiceProcess, sensorId: number, writers: number) {
  const sent: Sent[] = [];
  let next = 1;
  let running = true;
  const loops = Array.from({ length: writers }, async (_, w) => {
    while (running) {
      const size = w % 2 === 0 ? 1 : 25;
      const values = Array.from({ length: size }, () => next++);
      const record: Sent = { values, acknowledged: false };
      sent.push(record);
      const body = size === 1 ? { sensor_id: sensorId, value: values[0] } : values.map((value) => ({ sensor_id: sensorId, value }));
      try {
        const res = await fetch(`${service.url}/measurements`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        await res.arrayBuffer();
        record.acknowledged = res.status === 200;
        if (res.status !== 200 && res.status !== 503) throw new Error(`unexpected status ${res.status}`);
      } catch (error) {
        if (!running) return;
        // The connection died because the process was killed: that request is simply unacknowledged.
        if ((error as Error).message.startsWith('unexpected')) throw error;
        return;
      }
    }
  });
  return {
    sent,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

async function storedValues(url: string, sensorId: number): Promise<Set<number>> {
  const res = await fetch(`${url}/measurements/${sensorId}`);
  expect(res.status).toBe(200);
  const rows = (await res.json()) as { value: number }[];
  return new Set(rows.map((r) => r.value));
}

describe.each(storeKinds())('durability under concurrent ingest (%s)', (kind) => {
  let database: ScratchDatabase;
  beforeAll(async () => {
    database = await scratchDatabase(kind);
  });
  afterAll(() => database?.drop());

  for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
    it(`keeps every acknowledged measurement and never half a batch after ${signal}`, async () => {
      const service = await spawnService({ DATABASE_URL: database.url });
      const sensorId = signal === 'SIGKILL' ? 1 : 2;
      const traffic = ingestUntilStopped(service, sensorId, 16);
      await new Promise((r) => setTimeout(r, 1500));
      const code = await service.stop(signal);
      await traffic.stop();
      if (signal === 'SIGTERM') expect(code).toBe(0);

      const restarted = await spawnService({ DATABASE_URL: database.url });
      try {
        const stored = await storedValues(restarted.url, sensorId);
        const acknowledged = traffic.sent.filter((s) => s.acknowledged);
        expect(acknowledged.length).toBeGreaterThan(20);
        for (const request of acknowledged) {
          for (const value of request.values) expect(stored.has(value), `acknowledged value ${value}`).toBe(true);
        }
        for (const request of traffic.sent) {
          const present = request.values.filter((v) => stored.has(v)).length;
          expect([0, request.values.length], `request of ${request.values.length}`).toContain(present);
        }
      } finally {
        await restarted.stop();
      }
    });
  }
});

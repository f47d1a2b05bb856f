import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { DAY } from '../../src/domain/bucket-sizes.js';
import { retentionJob } from '../../src/history/retention-job.js';
import { openStore } from '../../src/store/index.js';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';

const NOW = Date.UTC(2026, 10, 22, 12);
const iso = (t: number) => new Date(t).toISOString();

function recordingLog() {
  const lines: { details: object; message: string }[] = [];
  const push = (details: object, message: string) => lines.push({ details, message });
  return { lines, info: push, warn: push, error: push };
}

describe.each(storeKinds())('retention of raw measurements (%s)', (kind) => {
  let service: TestService;
  let before: { aggregate: unknown; points: { measurement_id: number }[] };
  beforeAll(async () => {
    service = await startService(kind);
    service.clock.now = NOW;
    // Five days of sensor 1, a reading every 10 minutes.
    const body = [];
    for (let t = NOW - 5 * DAY; t < NOW; t += 600_000) body.push({ sensor_id: 1, value: (t / 600_000) % 13, timestamp: iso(t) });
    expect((await service.post('/measurements', body)).status).toBe(200);
    before = {
      aggregate: (await service.get('/measurements/1/aggregate?bucket=1h')).body,
      points: (await service.get('/measurements/1?max_points=40')).body,
    };
  });
  afterAll(() => service?.close());

  it('deletes raw rows before the cutoff in small batches and keeps their hourly and daily buckets', async () => {
    const log = recordingLog();
    const job = retentionJob(service.store, { rawMs: 2 * DAY, fiveMinuteMs: 3 * DAY }, () => NOW, log, { batchSize: 50 });
    const totals = await job.runOnce();
    const cutoff = Date.UTC(2026, 10, 20);
    // From 2026-11-17T12:00: 2.5 days of rows before the raw cutoff (2026-11-20), 1.5 days of 5-minute buckets before theirs (2026-11-19).
    const older = 360;
    expect(totals).toEqual({ raw: older, fiveMinute: 216 });
    expect(log.lines.at(-1)?.message).toMatch(/pass done/);
    expect(log.lines.at(-1)?.details).toMatchObject({ raw: older, fiveMinute: 216 });

    // The raw endpoint answers what remains; aggregate answers from the buckets as before.
    const raw = (await service.get('/measurements/1')).body as { timestamp: string }[];
    expect(raw.length).toBe(5 * 144 - older);
    expect(raw.every((r) => Date.parse(r.timestamp) >= cutoff)).toBe(true);
    expect((await service.get('/measurements/1/aggregate?bucket=1h')).body).toEqual(before.aggregate);
    const fiveMinute = (await service.get('/measurements/1/aggregate?bucket=5m')).body as { start: string }[];
    expect(Date.parse(fiveMinute[0].start)).toBe(Date.UTC(2026, 10, 19));
    // max_points still answers the retired range from the buckets, with the points they recorded.
    expect((await service.get('/measurements/1?max_points=40')).body).toEqual(before.points);

    // A second pass has nothing left to do.
    expect(await job.runOnce()).toEqual({ raw: 0, fiveMinute: 0 });
  });

  it('runs on one instance at a time', async () => {
    const other = await openStore(service.config.databaseUrl, { seedDefaults: false });
    try {
      let release = () => {};
      const holding = service.store.exclusively('retention', () => new Promise<void>((resolve) => (release = resolve)));
      const job = retentionJob(other, { rawMs: 2 * DAY }, () => NOW, recordingLog());
      if (kind === 'postgres') {
        // Another instance holds the pass: this one skips it.
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(await job.runOnce()).toBeUndefined();
      }
      release();
      await holding;
      expect(await job.runOnce()).toEqual({ raw: 0, fiveMinute: 0 });
    } finally {
      await other.close();
    }
  });
});

describe('retention settings', () => {
  it('takes durations and refuses anything else, naming the variable', () => {
    expect(loadConfig({ RETENTION_RAW: 'P365D', RETENTION_5M: '30 days, 00:00:00' })).toMatchObject({
      retentionRawMs: 365 * DAY,
      retentionFiveMinuteMs: 30 * DAY,
    });
    expect(loadConfig({})).toMatchObject({ retentionRawMs: undefined, retentionFiveMinuteMs: undefined });
    expect(() => loadConfig({ RETENTION_RAW: 'forever' })).toThrow(/RETENTION_RAW/);
    expect(() => loadConfig({ RETENTION_5M: '0' })).toThrow(/RETENTION_5M/);
  });
});

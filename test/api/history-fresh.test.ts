import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, HOUR } from '../../src/domain/bucket-sizes.js';
import { aggregateOfRows, type MeasurementRow } from '../helpers/history.js';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';

const NOW = Date.UTC(2026, 10, 22, 12);
const iso = (t: number) => new Date(t).toISOString();
const SIZES: [string, number][] = [
  ['5m', 300_000],
  ['1h', HOUR],
  ['1d', DAY],
  ['2h', 2 * HOUR],
  ['P7D', 7 * DAY],
  ['90', 90_000],
];

/**
 * Every committed row is in every bucket read right after its commit, on both stores: SQLite writes
 * each size at ingest; PostgreSQL writes the 5-minute buckets and folds the hours and days in a
 * rollup that runs later, so its reads fold the hours it has not reached yet.
 */
describe.each(storeKinds())('reads right after ingest, at every bucket size (%s)', (kind) => {
  let service: TestService;
  const rows: MeasurementRow[] = [];
  const window = `start_time=${iso(NOW - 20 * DAY)}&end_time=${iso(NOW + HOUR)}`;

  async function post(body: { value: number; timestamp: number }[]): Promise<void> {
    const res = await service.post(
      '/measurements',
      body.map((b) => ({ sensor_id: 1, value: b.value, timestamp: iso(b.timestamp) })),
    );
    expect(res.status).toBe(200);
    rows.push(...(res.body as MeasurementRow[]));
  }

  async function expectEveryRow(when: string): Promise<void> {
    for (const [bucket, size] of SIZES) {
      const res = await service.get(`/measurements/1/aggregate?bucket=${bucket}&${window}`);
      expect(res.status).toBe(200);
      expect(res.body, `${when}, ${bucket}`).toEqual(aggregateOfRows(rows, size));
    }
    const points = await service.get(`/measurements/1?max_points=20&${window}`);
    const ids = new Set(rows.map((r) => r.measurement_id));
    expect(
      (points.body as MeasurementRow[]).every((p) => ids.has(p.measurement_id)),
      when,
    ).toBe(true);
    expect(
      (points.body as MeasurementRow[]).map((p) => p.value),
      when,
    ).toContain(Math.max(...rows.map((r) => r.value)));
  }

  beforeAll(async () => {
    service = await startService(kind, { now: NOW });
  });
  afterAll(() => service?.close());

  it('answers each new row at once: new hours, a late row in a day already read, a new extreme', async () => {
    const base: { value: number; timestamp: number }[] = [];
    for (let t = NOW - 10 * DAY; t < NOW; t += 37 * 60_000) base.push({ value: Math.round(Math.sin(t / HOUR) * 100), timestamp: t });
    await post(base);
    await expectEveryRow('after the first batch');
    // The rollup (PostgreSQL) reaches the hours so far; then new rows come in after it.
    while (service.store.upkeep && (await service.store.upkeep.rollUp()) > 0);
    await expectEveryRow('after the rollup');
    await post([{ value: 4, timestamp: NOW - 1000 }]);
    await expectEveryRow('after a row of the current hour');
    await post([{ value: -500, timestamp: NOW - 6 * DAY - 7 * 60_000 }]);
    await expectEveryRow('after a late row in a day read before');
    await post([{ value: 999, timestamp: NOW - 15 * DAY }]);
    await expectEveryRow('after a row in a day that had none');
    while (service.store.upkeep && (await service.store.upkeep.rollUp()) > 0);
    await expectEveryRow('after the second rollup');
  });
});

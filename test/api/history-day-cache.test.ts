import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, HOUR } from '../../src/domain/bucket-sizes.js';
import { aggregateOfRows, type MeasurementRow } from '../helpers/history.js';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';

type Row = MeasurementRow;

const NOW = Date.UTC(2026, 10, 22, 12);
const iso = (t: number) => new Date(t).toISOString();
/** Six days of data ending at NOW: four whole UTC days inside the window, partial ones at its edges. */
const FROM = NOW - 5 * DAY - 7 * HOUR;
const WINDOW = `start_time=${iso(FROM)}&end_time=${iso(NOW)}`;

const expected = aggregateOfRows;

/**
 * Long reads keep the hourly buckets they read per day and reuse them while the day's bucket is
 * unchanged. Every way the stored buckets change — from this service or another process — must
 * show in the next answer, exactly as recomputed from the raw rows.
 */
describe.each(storeKinds())('hourly buckets kept between reads (%s)', (kind) => {
  let service: TestService;
  let other: TestService;
  const series = (count: number, first: number, step: number, value: (i: number) => number) =>
    Array.from({ length: count }, (_, i) => ({ sensor_id: 1, value: value(i), timestamp: iso(first + i * step) }));

  beforeAll(async () => {
    service = await startService(kind);
    service.clock.now = NOW;
    // A second process on the same store: its writes reach the first only through the store.
    other = await startService(kind, { database: service.database });
    other.clock.now = NOW;
    const posted = await service.post(
      '/measurements',
      series(600, FROM + 60_000, 12 * 60_000, (i) => Math.round(20 + Math.sin(i / 7) * 4)),
    );
    expect(posted.status).toBe(200);
  });
  afterAll(async () => {
    await other?.close();
    await service?.close();
  });

  /** The raw rows of the whole buckets of `size` that overlap the window. */
  const raw = async (size = 1): Promise<Row[]> => {
    const from = iso(Math.floor(FROM / size) * size);
    const to = iso(Math.ceil(NOW / size) * size);
    return (await service.get(`/measurements/1?start_time=${from}&end_time=${to}`)).body;
  };

  /** Every long read this service answers from hourly buckets, against the raw rows and a fresh reader. */
  async function expectExact(label: string): Promise<void> {
    for (const [bucket, size] of [
      ['1h', HOUR],
      ['3h', 3 * HOUR],
    ] as const) {
      const rows = await raw(size);
      const res = await service.get(`/measurements/1/aggregate?bucket=${bucket}&${WINDOW}`);
      expect(res.status, `${label}: ${bucket}`).toBe(200);
      // A folded mean adds hourly sums, the raw one adds values: the same up to the last bits.
      const rounded = (answer: { mean: number }[]) => answer.map((b) => ({ ...b, mean: Number(b.mean.toPrecision(12)) }));
      expect(rounded(res.body), `${label}: ${bucket}`).toEqual(rounded(expected(rows, size)));
    }
    // max_points answers stored points; a service started now, with nothing kept, gives the reference.
    const path = `/measurements/1?max_points=60&${WINDOW}`;
    const fresh = await startService(kind, { database: service.database });
    fresh.clock.now = NOW;
    const reference = (await fresh.get(path)).body;
    await fresh.close();
    const points = await service.get(path);
    expect(points.status, label).toBe(200);
    expect(points.body, label).toEqual(reference);
    expect(points.body.length, label).toBeGreaterThan(10);
    expect(points.body.length, label).toBeLessThanOrEqual(60);
  }

  it('answers from the buckets as stored, read after read', async () => {
    await expectExact('first read');
    await expectExact('second read');
  });

  it('shows a late measurement in a day already read', async () => {
    await expectExact('before');
    const late = await service.post('/measurements', { sensor_id: 1, value: 99, timestamp: iso(NOW - 3 * DAY + 5 * HOUR + 1234) });
    expect(late.status).toBe(200);
    await expectExact('after a late measurement');
    const answer = (await service.get(`/measurements/1/aggregate?bucket=1h&${WINDOW}`)).body as { start: string; max: number }[];
    expect(answer.find((b) => b.start === iso(NOW - 3 * DAY + 5 * HOUR))?.max).toBe(99);
  });

  it('shows a deleted measurement gone', async () => {
    await expectExact('before');
    const rows = await raw();
    const victim = rows[Math.floor(rows.length / 2)];
    expect((await service.request('DELETE', `/measurements/${victim.measurement_id}`)).status).toBe(204);
    await expectExact('after a delete');
  });

  it('shows what another process wrote and deleted', async () => {
    await expectExact('before');
    const posted = await other.post(
      '/measurements',
      series(20, NOW - 4 * DAY + 17, 3 * 60_000, (i) => -5 - i),
    );
    expect(posted.status).toBe(200);
    await expectExact('after another process wrote');
    expect((await other.request('DELETE', `/measurements/${posted.body[0].measurement_id}`)).status).toBe(204);
    await expectExact('after another process deleted');
  });

  it('shows data replaced by the generator', async () => {
    await expectExact('before');
    const generated = await service.post('/Measurement/Random', { nb_measurements: 3000, replace: true });
    expect(generated.status).toBe(200);
    await expectExact('after replace');
  });
});

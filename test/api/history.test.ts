import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bucketStart, HOUR } from '../../src/domain/bucket-sizes.js';
import { aggregateOfRows, type MeasurementRow } from '../helpers/history.js';
import { phSensorBody } from '../helpers/bodies.js';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds, dbOf } from '../helpers/stores.js';

type Row = MeasurementRow;

const NOW = Date.UTC(2026, 10, 22, 12);
const at = (h: number, m = 0, s = 0, ms = 0) => Date.UTC(2026, 10, 22, h, m, s, ms);
const iso = (t: number) => new Date(t).toISOString();

const expected = aggregateOfRows;

describe.each(storeKinds())('GET /measurements/{id}/aggregate (%s)', (kind) => {
  let service: TestService;
  let rows: Row[];
  beforeAll(async () => {
    service = await startService(kind);
    service.clock.now = NOW;
    // Edges of the hour (first and last millisecond), a late row posted after later ones, and a tie on the minimum.
    const posted = [
      { t: at(10, 0), v: 5 },
      { t: at(10, 59, 59, 999), v: 1 },
      { t: at(11, 0), v: 7 },
      { t: at(11, 30), v: 1 },
      { t: at(9, 15), v: 3 },
      { t: at(11, 59, 59, 999), v: 9 },
    ];
    for (const p of posted)
      expect((await service.post('/measurements', { sensor_id: 1, value: p.v, timestamp: iso(p.t) })).status).toBe(200);
    expect(
      (
        await service.post('/measurements', [
          { sensor_id: 1, value: 2, timestamp: iso(at(11, 45)) },
          { sensor_id: 2, value: 100, timestamp: iso(at(11, 10)) },
        ])
      ).status,
    ).toBe(200);
    rows = (await service.get('/measurements/1')).body;
  });
  afterAll(() => service?.close());

  it('answers whole buckets aligned in UTC, half-open, ascending, empty ones left out', async () => {
    const res = await service.get(`/measurements/1/aggregate?bucket=1h&start_time=${iso(at(10, 30))}&end_time=${iso(at(11, 59, 59, 999))}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(
      expected(
        rows.filter((r) => Date.parse(r.timestamp) >= at(10)),
        HOUR,
      ),
    );
    expect(res.body.map((b: { start: string }) => b.start)).toEqual([iso(at(10)), iso(at(11))]);
    expect(res.body[0]).toMatchObject({ count: 2, min: 1, max: 5, first: 5, last: 1, mean: 3 });
    expect(res.body[1]).toMatchObject({ count: 4, min: 1, max: 9, first: 7, last: 9 });
    // The end is exclusive: a window ending on 11:00 leaves the 11:00 bucket out.
    const before = await service.get(`/measurements/1/aggregate?bucket=PT1H&start_time=${iso(at(9))}&end_time=${iso(at(11))}`);
    expect(before.body.map((b: { start: string }) => b.start)).toEqual([iso(at(9)), iso(at(10))]);
    // Another sensor's rows are not counted.
    const other = await service.get(`/measurements/2/aggregate?bucket=1h`);
    expect(other.body).toEqual([{ start: iso(at(11)), end: iso(at(12)), count: 1, min: 100, max: 100, mean: 100, first: 100, last: 100 }]);
  });

  it('folds multiples of a kept size and computes other sizes from raw rows, with the same answer as the rows give', async () => {
    for (const [bucket, size] of [
      ['15m', 15 * 60_000],
      ['P1D', 24 * HOUR],
      ['7200', 2 * HOUR],
      ['7m', 7 * 60_000],
      ['PT0.5S', 500],
      ['1d', 24 * HOUR],
    ] as const) {
      const res = await service.get(`/measurements/1/aggregate?bucket=${bucket}`);
      expect(res.status, bucket).toBe(200);
      expect(res.body, bucket).toEqual(expected(rows, size));
    }
  });

  it('with max_points picks the size: at most that many buckets', async () => {
    const res = await service.get(`/measurements/1/aggregate?max_points=2&start_time=${iso(at(0))}&end_time=${iso(at(24))}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(expected(rows, 12 * HOUR));
    const one = await service.get(`/measurements/1/aggregate?max_points=100&time_delta=PT3H`);
    expect(one.body.length).toBeLessThanOrEqual(100);
    expect(one.body.reduce((n: number, b: { count: number }) => n + b.count, 0)).toBe(
      rows.filter((r) => Date.parse(r.timestamp) >= bucketStart(NOW - 3 * HOUR, 5 * 60_000)).length,
    );
  });

  it('answers windows across the epoch, where one aligned bucket cannot hold them', async () => {
    const since = `start_time=0001-01-01T00:00:00Z&end_time=${iso(at(24))}`;
    const two = await service.get(`/measurements/1/aggregate?max_points=2&${since}`);
    expect(two.status).toBe(200);
    expect(two.body).toHaveLength(1);
    expect(two.body[0].count).toBe(rows.length);
    // Three points allow one bucket: the raw path's equal spans answer instead.
    const points = await service.get(`/measurements/1?max_points=3&${since}`);
    expect(points.status).toBe(200);
    expect(points.body.map((r: Row) => r.value).sort()).toEqual([1, 9]);
  });

  it('answers an empty array for a window without data, 404 for an unknown sensor', async () => {
    expect((await service.get(`/measurements/1/aggregate?bucket=1h&end_time=${iso(at(1))}`)).body).toEqual([]);
    expect((await service.get(`/measurements/3/aggregate?bucket=1h`)).body).toEqual([]);
    const missing = await service.get('/measurements/999/aggregate?bucket=1h');
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toMatch(/999/);
  });

  it.each([
    ['neither bucket nor max_points', '', 'bucket'],
    ['both', 'bucket=1h&max_points=10', 'max_points'],
    ['a bucket that is no duration', 'bucket=soon', 'bucket'],
    ['a zero bucket', 'bucket=0', 'bucket'],
    ['a bucket of part of a millisecond', 'bucket=0.0005', 'bucket'],
    ['more than 100,000 buckets', `bucket=1s&start_time=${iso(at(0))}&end_time=${iso(at(0) + 100_001_000)}`, 'bucket'],
    ['max_points below 2', 'max_points=1', 'max_points'],
    ['max_points above 100,000', 'max_points=100001', 'max_points'],
    ['time_delta with start_time', `bucket=1h&time_delta=PT1H&start_time=${iso(at(0))}`, 'time_delta'],
    ['a start after the end', `bucket=1h&start_time=${iso(at(2))}&end_time=${iso(at(1))}`, 'start_time'],
    ['a negative time_delta', 'bucket=1h&time_delta=-5', 'time_delta'],
  ])('refuses %s with 422', async (_name, query, field) => {
    const res = await service.get(`/measurements/1/aggregate?${query}`);
    expect(res.status).toBe(422);
    expect(res.body.detail.some((d: { loc: string[] }) => d.loc[0] === 'query' && d.loc[1] === field)).toBe(true);
  });

  it.each([
    ['in months, which have no fixed length', 'P1M', /no fixed length.*days.*P30D/],
    ['in years', 'P1Y', /no fixed length.*days.*P30D/],
    ['of ten thousand years', 'P10000Y', /no fixed length.*days.*P30D/],
    ['longer than the years 1 to 9999', 'P3653000D', /at most the span of the years 1 to 9999/],
    // 10,000 years in days: the bucket holding 2026 starts in 1970 and would end in 11963.
    ['whose bucket would end after the year 9999', 'P3650000D', /end after the year 9999 \(the last would end in the year 11963\)/],
  ])('refuses a bucket %s with 422 naming the bucket', async (_name, bucket, msg) => {
    const res = await service.get(`/measurements/1/aggregate?bucket=${bucket}`);
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([{ loc: ['query', 'bucket'], msg: expect.stringMatching(msg), type: expect.any(String) }]);
  });

  it('still reads months in time_delta as 30 days, and judges a long window by the buckets that hold data', async () => {
    const month = await service.get('/measurements/1/aggregate?bucket=1d&time_delta=P1M');
    expect(month.status).toBe(200);
    expect(month.body).toEqual(expected(rows, 24 * HOUR));
    // 30 days align on 1970-01-01: the bucket holding 0001-01-01 starts before the year 1, but holds no data.
    const months = await service.get('/measurements/1/aggregate?bucket=P30D&start_time=0001-01-01T00:00:00Z');
    expect(months.status).toBe(200);
    expect(months.body).toEqual(expected(rows, 30 * 24 * HOUR));
  });

  it('keeps the buckets exact when a measurement is deleted, and removes them with a sensor (cascade)', async () => {
    const sensor = await service.post('/sensors/', phSensorBody);
    expect(sensor.status).toBe(200);
    const id = sensor.body.sensor_id;
    const posted = await service.post('/measurements', [
      { sensor_id: id, value: 1, timestamp: iso(at(8, 1)) },
      { sensor_id: id, value: 9, timestamp: iso(at(8, 2)) },
      { sensor_id: id, value: 4, timestamp: iso(at(8, 3)) },
    ]);
    expect(posted.status).toBe(200);
    // The maximum goes: every size is recomputed from what remains.
    expect((await service.request('DELETE', `/measurements/${posted.body[1].measurement_id}`)).status).toBe(204);
    for (const bucket of ['5m', '1h', '1d']) {
      const res = await service.get(`/measurements/${id}/aggregate?bucket=${bucket}`);
      expect(res.body, bucket).toMatchObject([{ count: 2, min: 1, max: 4, mean: 2.5, first: 1, last: 4 }]);
    }
    const buckets = () => dbOf(service.store).selectFrom('history_buckets').select('start_ms').where('sensor_id', '=', id).execute();
    // PostgreSQL writes the hour and the day when its rollup comes by (the reads above folded them).
    while (service.store.upkeep && (await service.store.upkeep.rollUp()) > 0);
    expect(await buckets()).toHaveLength(3);
    expect((await service.request('DELETE', `/sensors/${id}`)).status).toBe(409);
    expect(await buckets()).toHaveLength(3);
    expect((await service.request('DELETE', `/sensors/${id}?cascade=true`)).status).toBe(204);
    expect(await buckets()).toHaveLength(0);
  });

  it('accepts exactly 100,000 buckets', async () => {
    const res = await service.get(`/measurements/1/aggregate?bucket=1s&start_time=${iso(at(0))}&end_time=${iso(at(0) + 100_000_000)}`);
    expect(res.status).toBe(200);
    expect(res.body.reduce((n: number, b: { count: number }) => n + b.count, 0)).toBe(rows.length);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BucketLayout, bucketCount } from '../../src/domain/buckets.js';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';

interface Row {
  measurement_id: number;
  sensor_id: number;
  value: number;
  timestamp: string;
}

const NOW = Date.UTC(2026, 10, 22, 12);
const ms = (r: Row) => Date.parse(r.timestamp);

/** Per bucket of the layout: the lowest and highest value, from the whole series. */
function extremes(rows: Row[], layout: BucketLayout): Map<number, [number, number]> {
  const out = new Map<number, [number, number]>();
  for (const r of rows) {
    const b = layout.of(ms(r));
    const [lo, hi] = out.get(b) ?? [Infinity, -Infinity];
    out.set(b, [Math.min(lo, r.value), Math.max(hi, r.value)]);
  }
  return out;
}

describe.each(storeKinds())('max_points over a long, uneven series (%s)', (kind) => {
  let service: TestService;
  let series: Row[];
  beforeAll(async () => {
    service = await startService(kind);
    service.clock.now = NOW;
    // 150,000 rows per sensor, a tenth of them in the last hour: more than one slice of the
    // store's downsampling, and buckets of very different sizes.
    const res = await service.post('/Measurement/Random', { nb_measurements: 450_000 });
    expect(res.status).toBe(200);
    series = (await service.get('/measurements/2')).body;
    expect(series).toHaveLength(150_000);
  }, 120_000);
  afterAll(() => service?.close());

  it.each([
    ['the whole series', '', () => series],
    [
      'a window',
      `&start_time=${new Date(NOW - 30 * 24 * 3600_000).toISOString()}&end_time=${new Date(NOW - 3600_000).toISOString()}`,
      () => series.filter((r) => ms(r) >= NOW - 30 * 24 * 3600_000 && ms(r) < NOW - 3600_000),
    ],
  ])('keeps the lowest and highest of every time bucket of %s', async (_name, query, expected) => {
    const rows = expected();
    for (const maxPoints of [2, 999, 5000]) {
      const res = await service.get(`/measurements/2?max_points=${maxPoints}${query}`);
      expect(res.status).toBe(200);
      const kept = res.body as Row[];
      expect(kept.length).toBeLessThanOrEqual(maxPoints);
      // Real rows of the series, ascending.
      const byId = new Map(rows.map((r) => [r.measurement_id, r]));
      for (const r of kept) expect(byId.get(r.measurement_id)).toEqual(r);
      for (let i = 1; i < kept.length; i++) expect(ms(kept[i])).toBeGreaterThanOrEqual(ms(kept[i - 1]));
      // Every bucket that holds rows is there with its extremes, and nothing else.
      const layout = new BucketLayout(ms(rows[0]), ms(rows[rows.length - 1]), bucketCount(maxPoints));
      const want = extremes(rows, layout);
      const got = extremes(kept, layout);
      expect(got).toEqual(want);
      for (const b of want.keys()) expect(kept.filter((r) => layout.of(ms(r)) === b).length).toBeLessThanOrEqual(2);
    }
  });
});

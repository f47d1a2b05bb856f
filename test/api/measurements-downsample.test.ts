import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BucketLayout, bucketCount } from '../../src/domain/buckets.js';
import { bucketCeil, bucketStart, keptSizeDividing, sizeFittingIn } from '../../src/domain/bucket-sizes.js';
import type { MeasurementRow } from '../helpers/history.js';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';

type Row = MeasurementRow;

const NOW = Date.UTC(2026, 10, 22, 12);
const ms = (r: Row) => Date.parse(r.timestamp);

/** Which bucket a point falls in, for the path the service answers from. */
type Bucketing = (t: number) => number | string;

/**
 * The documented choice (docs/api.md §10): the kept buckets when the window's whole buckets of
 * the chosen size read fewer rows than the raw rows they hold, each giving its extremes and the
 * partial buckets at the edges theirs; otherwise max_points/2 equal spans over the rows.
 */
function bucketingOf(rows: Row[], start: number, end: number, maxPoints: number): { fromHistory: boolean; of: Bucketing } {
  const size = sizeFittingIn(start, end, Math.floor(maxPoints / 2));
  const kept = size === undefined ? undefined : keptSizeDividing(size);
  const inner = size === undefined ? [0, 0] : [bucketCeil(start, size), bucketStart(end, size)];
  if (size !== undefined && kept !== undefined && inner[0] < inner[1]) {
    const held = rows.filter((r) => ms(r) >= inner[0] && ms(r) < inner[1]);
    const keptBuckets = new Set(held.map((r) => bucketStart(ms(r), kept))).size;
    if (held.length > maxPoints && keptBuckets < held.length) {
      return { fromHistory: true, of: (t) => (t < inner[0] ? 'head' : t >= inner[1] ? 'tail' : bucketStart(t, size)) };
    }
  }
  const layout = new BucketLayout(ms(rows[0]), ms(rows[rows.length - 1]), bucketCount(maxPoints));
  return { fromHistory: false, of: (t) => layout.of(t) };
}

/** Per bucket: the lowest and highest value, from the whole series. */
function extremes(rows: Row[], bucketOf: Bucketing): Map<number | string, [number, number]> {
  const out = new Map<number | string, [number, number]>();
  for (const r of rows) {
    const b = bucketOf(ms(r));
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

  const monthAgo = NOW - 30 * 24 * 3600_000 + 1234;
  it.each([
    ['the whole series', '', () => series, () => [ms(series[0]), ms(series[series.length - 1]) + 1]],
    [
      'a window',
      `&start_time=${new Date(monthAgo).toISOString()}&end_time=${new Date(NOW - 3600_000).toISOString()}`,
      () => series.filter((r) => ms(r) >= monthAgo && ms(r) < NOW - 3600_000),
      () => [monthAgo, NOW - 3600_000],
    ],
  ])('keeps the lowest and highest of every time bucket of %s', async (_name, query, expected, bounds) => {
    const rows = expected();
    const byId = new Map(rows.map((r) => [r.measurement_id, r]));
    const paths = new Set<boolean>();
    for (const maxPoints of [2, 999, 5000]) {
      const res = await service.get(`/measurements/2?max_points=${maxPoints}${query}`);
      expect(res.status).toBe(200);
      const kept = res.body as Row[];
      expect(kept.length).toBeLessThanOrEqual(maxPoints);
      // Real rows of the series, ascending.
      for (const r of kept) expect(byId.get(r.measurement_id)).toEqual(r);
      for (let i = 1; i < kept.length; i++) expect(ms(kept[i])).toBeGreaterThanOrEqual(ms(kept[i - 1]));
      // Every bucket that holds rows is there with its extremes, and nothing else.
      const [start, end] = bounds();
      const { fromHistory, of } = bucketingOf(rows, start, end, maxPoints);
      paths.add(fromHistory);
      const want = extremes(rows, of);
      const got = extremes(kept, of);
      expect(got).toEqual(want);
      // At most two rows per bucket, the low and the high (counted in one pass over the rows kept).
      const perBucket = new Map<number | string, number>();
      for (const r of kept) {
        const b = of(ms(r));
        perBucket.set(b, (perBucket.get(b) ?? 0) + 1);
      }
      for (const b of want.keys()) expect(perBucket.get(b) ?? 0).toBeLessThanOrEqual(2);
    }
    // Both paths are exercised: the equal spans (max_points=2) and the history buckets.
    expect([...paths].sort()).toEqual([false, true]);
  });
});

import { grouped } from '../domain/grouped.js';
import { BucketLayout } from '../domain/buckets.js';
import type { TimeWindow } from '../domain/time-window.js';
import { E, extremesPerBucket, type ExtremesRow, extremesRowOf } from '../history/extremes.js';
import { type AggregateBucket, aggregateBucketJson } from '../history/bucket-json.js';
import { dayCache, jsonArrayOf, rowsOf, type Stretch } from '../history/day-cache.js';
import { type BucketSizeProblem, bucketsBeyondYears, isBucketSizeProblem, readBucketSize } from '../history/bucket-size.js';
import { type Bucket, bucketStream, foldBuckets } from '../domain/bucket-fold.js';
import { bucketCeil, bucketsIn, bucketStart, HOUR, keptSizeDividing, MAX_BUCKETS, sizeFittingIn } from '../domain/bucket-sizes.js';
import type { AggregateQuery } from './schemas.js';
import { type BucketRead, bucketOfRow, type BucketRow, V } from '../domain/bucket-rows.js';
import type { StoredMeasurement } from '../store/index.js';
import type { ServiceDeps } from '../core/service-deps.js';
import { InvalidInput, NotFound } from '../core/errors.js';
import { windowOf } from '../core/window.js';

/** A stored bucket of the asked size as answered. */
function answerOfRow(r: BucketRow, size: number): AggregateBucket {
  const start = r[V.start];
  const count = r[V.count];
  return {
    start,
    end: start + size,
    count,
    min: r[V.min],
    max: r[V.max],
    mean: r[V.sum] / count,
    first: r[V.first],
    last: r[V.last],
  };
}

/** A folded or computed bucket of `size` as answered. */
export function answerOfBucket(b: Bucket, size: number): AggregateBucket {
  return {
    start: b.start,
    end: b.start + size,
    count: b.count,
    min: b.min.value,
    max: b.max.value,
    mean: b.sum / b.count,
    first: b.first.value,
    last: b.last.value,
  };
}

/**
 * Long ranges from the history buckets (docs/api.md §10). Answers are whole buckets aligned in UTC: a
 * bucket overlapping an edge of the window is answered whole, as a chart of hourly means expects.
 */
export function historyService({ store, now }: ServiceDeps) {
  const hourly = dayCache(store.history);

  /** Kept buckets of `size` in [from, to): the hourly ones through the day cache, the others as read. */
  async function keptStretches(read: BucketRead, sensorId: number, size: number, from: number, to: number): Promise<Stretch[]> {
    if (size === HOUR) return hourly.stretches(read, sensorId, size, from, to);
    return [{ rows: await store.history.bucketRows(read, sensorId, size, from, to) }];
  }

  /** The window's bounds as [start, end), unbounded sides taken from the sensor's history. */
  async function boundsOf(sensorId: number, window: TimeWindow): Promise<{ start: number; end: number } | undefined> {
    const extent = window.start === undefined || window.end === undefined ? await store.history.extent(sensorId) : undefined;
    const start = window.start ?? extent?.first;
    const end = window.end === undefined ? extent?.end : window.end + (window.endInclusive ? 1 : 0);
    if (start === undefined || end === undefined || start >= end) return undefined;
    return { start, end };
  }

  /**
   * Why the buckets answered for [start, end) would reach beyond the years 1 to 9999, if they
   * would. Only buckets that hold data are answered: where the window's buckets reach beyond, the
   * part of the window holding the sensor's data decides (a window from the year 1 with data from
   * 2026 on is fine), so a 422 never refuses an answer that would have been whole.
   */
  async function answeredBeyondYears(sensorId: number, start: number, end: number, size: number): Promise<BucketSizeProblem | undefined> {
    if (!bucketsBeyondYears(start, end, size)) return undefined;
    const extent = await store.history.extent(sensorId);
    const first = Math.max(start, extent?.first ?? end);
    const last = Math.min(end, extent?.end ?? start);
    return first < last ? bucketsBeyondYears(first, last, size) : undefined;
  }

  async function fromRawRows(sensorId: number, start: number, end: number, size: number): Promise<Bucket[]> {
    const out: Bucket[] = [];
    const stream = bucketStream([size], (_size, bucket) => out.push(bucket));
    for await (const page of store.measurements.walkWindow(sensorId, { start, end, endInclusive: false })) {
      for (const row of page) stream.push(row);
    }
    stream.end();
    return out;
  }

  return {
    /**
     * GET /measurements/{id}/aggregate: buckets of the asked size, or of the size that fits
     * max_points, as the UTF-8 JSON of the answer (an array). Bytes, because a kept day's part of
     * it is kept with the day's rows (see dayCache): a year of hourly buckets is 1.8 MB of it.
     */
    async aggregateJson(sensorId: number, query: AggregateQuery): Promise<Buffer> {
      const window = windowOf(query, now());
      if (query.bucket === undefined && query.max_points === undefined) {
        throw new InvalidInput({ loc: ['query', 'bucket'], msg: 'Give bucket (a duration) or max_points', type: 'missing' });
      }
      if (query.bucket !== undefined && query.max_points !== undefined) {
        throw new InvalidInput({ loc: ['query', 'max_points'], msg: 'Give bucket or max_points, not both', type: 'value_error' });
      }
      let asked: number | undefined;
      if (query.bucket !== undefined) {
        const read = readBucketSize(query.bucket);
        if (isBucketSizeProblem(read)) throw new InvalidInput({ loc: ['query', 'bucket'], ...read });
        asked = read;
      }
      if (!(await store.sensors.get(sensorId))) throw new NotFound(`Sensor ${sensorId} not found`);
      const bounds = await boundsOf(sensorId, window);
      if (!bounds) return Buffer.from('[]');
      const { start, end } = bounds;
      const size = asked ?? sizeFittingIn(start, end, query.max_points as number);
      if (size === undefined) {
        throw new InvalidInput({
          loc: ['query', 'max_points'],
          msg: 'No bucket size fits this window in so few buckets',
          type: 'value_error',
        });
      }
      const count = bucketsIn(start, end, size);
      if (count > MAX_BUCKETS) {
        throw new InvalidInput({
          loc: ['query', query.bucket !== undefined ? 'bucket' : 'max_points'],
          msg: `The window holds ${count} buckets of this size; at most ${grouped(MAX_BUCKETS)} are answered`,
          type: 'value_error',
        });
      }
      const from = bucketStart(start, size);
      const to = bucketCeil(end, size);
      const beyond = await answeredBeyondYears(sensorId, start, end, size);
      if (beyond) throw new InvalidInput({ loc: ['query', query.bucket !== undefined ? 'bucket' : 'max_points'], ...beyond });
      const kept = keptSizeDividing(size);
      // A kept size is answered from its rows as read, without a bucket object per row.
      if (kept === size) {
        const stretches = await keptStretches('values', sensorId, size, from, to);
        return jsonArrayOf(stretches, (r) => aggregateBucketJson(answerOfRow(r, size)));
      }
      const buckets =
        kept === undefined
          ? await fromRawRows(sensorId, from, to, size)
          : foldBuckets(rowsOf(await keptStretches('whole', sensorId, kept, from, to)).map(bucketOfRow), size);
      return Buffer.from(`[${buckets.map((b) => aggregateBucketJson(answerOfBucket(b, size))).join(',')}]`);
    },

    /**
     * `max_points` over a window, from the buckets when that reads fewer rows than the raw rows:
     * the window is cut into at most max_points/2 aligned buckets of a multiple of a kept size,
     * each giving its lowest and highest measurement. The kept buckets wholly inside the window
     * give theirs; the two partial kept buckets at its edges are read from raw rows (under one
     * kept size of them each) and join the edge buckets as points of their own. Undefined: the raw
     * path is cheaper (or the window holds no more than max_points rows and is answered whole).
     */
    async downsampled(sensorId: number, window: TimeWindow, maxPoints: number): Promise<StoredMeasurement[] | undefined> {
      const bounds = await boundsOf(sensorId, window);
      if (!bounds) return undefined;
      const { start, end } = bounds;
      const size = sizeFittingIn(start, end, Math.max(1, Math.floor(maxPoints / 2)));
      if (size === undefined) return undefined;
      const kept = keptSizeDividing(size);
      if (kept === undefined || bucketCeil(start, size) >= bucketStart(end, size)) return undefined;
      const keptStart = bucketCeil(start, kept);
      const keptEnd = bucketStart(end, kept);
      const rows = rowsOf(await keptStretches('extremes', sensorId, kept, keptStart, keptEnd));
      let inner = 0;
      for (const r of rows) inner += r[E.count];
      if (inner <= maxPoints || rows.length >= inner) return undefined;
      const edge = async (edgeWindow: TimeWindow, first: number, last: number): Promise<ExtremesRow[]> =>
        first > last
          ? []
          : (await store.measurements.extremesPerBucket(sensorId, edgeWindow, new BucketLayout(first, last, 1), 1)).map(extremesRowOf);
      const head = await edge({ start, end: keptStart, endInclusive: false }, start, keptStart - 1);
      const tail = await edge({ start: keptEnd, end: window.end, endInclusive: window.endInclusive }, keptEnd, end - 1);
      return extremesPerBucket([...head, ...rows, ...tail], size).map((p) => ({
        measurement_id: p.id,
        sensor_id: sensorId,
        value: p.value,
        timestamp: p.ts,
      }));
    },
  };
}
export type HistoryService = ReturnType<typeof historyService>;

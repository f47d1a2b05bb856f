/**
 * A chart's series as it grows with live measurements while its range ends at "now": points that
 * scroll out of the range are dropped, and new points are folded into buckets of the width one
 * pixel shows, so the series stays as long as the chart is wide however fast readings arrive
 * (an hour at 10 readings a second stays at about two points per pixel).
 *
 * Times are seconds since the epoch (uPlot's unit), ascending.
 */
export interface SeriesColumns {
  times: number[];
  /** The line: raw values, or each bucket's mean. */
  values: number[];
  /** Aggregate series only: each bucket's minimum, maximum and count (the band around the mean). */
  lows?: number[];
  highs?: number[];
  counts?: number[];
}

export interface AggregateInput {
  start: string;
  count: number;
  min: number;
  max: number;
  mean: number;
}

export function rawColumns(points: readonly { timestamp: string; value: number }[]): SeriesColumns {
  return { times: points.map((p) => Date.parse(p.timestamp) / 1000), values: points.map((p) => p.value) };
}

export function aggregateColumns(buckets: readonly AggregateInput[]): SeriesColumns {
  return {
    times: buckets.map((b) => Date.parse(b.start) / 1000),
    values: buckets.map((b) => b.mean),
    lows: buckets.map((b) => b.min),
    highs: buckets.map((b) => b.max),
    counts: buckets.map((b) => b.count),
  };
}

/** Removes the points before `startSec` (they scrolled out of the range). */
export function dropBefore(series: SeriesColumns, startSec: number): void {
  let n = 0;
  while (n < series.times.length && series.times[n] < startSec) n++;
  if (n === 0) return;
  for (const column of [series.times, series.values, series.lows, series.highs, series.counts]) column?.splice(0, n);
}

/**
 * Adds one reading. A raw series keeps at most its minimum and maximum per bucket of `bucketSec`
 * (the shape a line of that resolution shows); an aggregate series folds it into its last bucket
 * or opens the next one. A reading older than the series' newest point is left out: it belongs
 * in the middle of what is drawn, and the next load of the range shows it.
 */
export function foldReading(series: SeriesColumns, timeSec: number, value: number, bucketSec: number): boolean {
  const { times, values } = series;
  const last = times.length - 1;
  if (last >= 0 && timeSec < times[last]) return false;
  if (series.counts && series.lows && series.highs) {
    foldIntoBucket(series as Required<SeriesColumns>, timeSec, value, bucketSec);
    return true;
  }
  const bucket = Math.floor(timeSec / bucketSec);
  let first = times.length;
  while (first > 0 && Math.floor(times[first - 1] / bucketSec) === bucket) first--;
  if (times.length - first < 2) {
    times.push(timeSec);
    values.push(value);
    return true;
  }
  // Three or more in this bucket: keep its lowest and highest, in time order.
  const candidates = times.slice(first).map((t, i) => ({ t, v: values[first + i] }));
  candidates.push({ t: timeSec, v: value });
  let low = candidates[0];
  let high = candidates[0];
  for (const c of candidates) {
    if (c.v < low.v) low = c;
    if (c.v > high.v) high = c;
  }
  const kept = low === high ? [low] : low.t <= high.t ? [low, high] : [high, low];
  times.splice(first, times.length - first, ...kept.map((c) => c.t));
  values.splice(first, values.length - first, ...kept.map((c) => c.v));
  return true;
}

function foldIntoBucket(series: Required<SeriesColumns>, timeSec: number, value: number, bucketSec: number): void {
  const { times, values, lows, highs, counts } = series;
  const last = times.length - 1;
  if (last >= 0 && timeSec < times[last] + bucketSec) {
    const count = counts[last] + 1;
    values[last] += (value - values[last]) / count;
    lows[last] = Math.min(lows[last], value);
    highs[last] = Math.max(highs[last], value);
    counts[last] = count;
    return;
  }
  // The next bucket on the same grid as the service's (or the epoch's, for an empty series).
  const start =
    last >= 0 ? times[last] + Math.floor((timeSec - times[last]) / bucketSec) * bucketSec : Math.floor(timeSec / bucketSec) * bucketSec;
  times.push(start);
  values.push(value);
  lows.push(value);
  highs.push(value);
  counts.push(1);
}

/** The width of an aggregate series' buckets, from the service's answer; the fallback when it has fewer than one. */
export function bucketWidthSec(buckets: readonly { start: string; end: string }[], fallbackSec: number): number {
  const first = buckets[0];
  if (!first) return fallbackSec;
  const width = (Date.parse(first.end) - Date.parse(first.start)) / 1000;
  return width > 0 ? width : fallbackSec;
}

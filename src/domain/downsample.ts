/**
 * Downsampling that keeps the shape of a series: the time span is cut into buckets and each
 * bucket keeps its minimum and its maximum (in time order), so peaks and troughs survive — a
 * single spike is the maximum of its bucket. It consumes the points one by one in time order and
 * holds only the output, so it never needs the whole series in memory.
 */
export interface Point {
  timestamp: number;
}

export function minMaxBuckets<T extends Point>(first: number, last: number, maxPoints: number, value: (p: T) => number) {
  const buckets = Math.max(1, Math.floor(maxPoints / 2));
  const span = Math.max(1, last - first + 1);
  const out: T[] = [];
  let bucket = -1;
  let min: T | undefined;
  let max: T | undefined;

  const flush = () => {
    if (!min || !max) return;
    if (min === max) out.push(min);
    else if (min.timestamp <= max.timestamp) out.push(min, max);
    else out.push(max, min);
  };

  return {
    add(point: T): void {
      const b = Math.min(buckets - 1, Math.floor(((point.timestamp - first) * buckets) / span));
      if (b !== bucket) {
        flush();
        bucket = b;
        min = max = point;
        return;
      }
      if (value(point) < value(min as T)) min = point;
      if (value(point) > value(max as T)) max = point;
    },
    finish(): T[] {
      flush();
      min = max = undefined;
      return out;
    },
  };
}

/** Downsamples a whole array (for callers that already hold it). */
export function downsample<T extends Point>(points: readonly T[], maxPoints: number, value: (p: T) => number): T[] {
  if (points.length <= maxPoints) return [...points];
  const sampler = minMaxBuckets<T>(points[0].timestamp, points[points.length - 1].timestamp, maxPoints, value);
  for (const p of points) sampler.add(p);
  return sampler.finish();
}

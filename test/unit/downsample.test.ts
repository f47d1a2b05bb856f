import { describe, expect, it } from 'vitest';
import { BucketLayout, downsample } from '../../src/domain/downsample.js';

const series = (n: number, f: (i: number) => number) => Array.from({ length: n }, (_, i) => ({ timestamp: i * 1000, value: f(i) }));
const value = (p: { value: number }) => p.value;

describe('downsample (min/max per time bucket)', () => {
  it('returns the series unchanged when it is short enough', () => {
    const points = series(10, (i) => i);
    expect(downsample(points, 10, value)).toEqual(points);
  });

  it('returns at most max_points, in time order', () => {
    const out = downsample(series(100_000, (i) => Math.sin(i / 500)), 1000, value);
    expect(out.length).toBeLessThanOrEqual(1000);
    expect(out.length).toBeGreaterThan(900);
    for (let i = 1; i < out.length; i++) expect(out[i].timestamp).toBeGreaterThan(out[i - 1].timestamp);
  });

  it('keeps a single spike and a single trough', () => {
    const points = series(50_000, () => 6.5);
    points[12_345].value = 14;
    points[40_000].value = -3;
    const out = downsample(points, 100, value);
    expect(out).toContainEqual({ timestamp: 12_345_000, value: 14 });
    expect(out).toContainEqual({ timestamp: 40_000_000, value: -3 });
    expect(Math.max(...out.map(value))).toBe(14);
    expect(Math.min(...out.map(value))).toBe(-3);
  });

  it('keeps the first and last points of a monotonic series', () => {
    const out = downsample(series(10_000, (i) => i), 20, value);
    expect(out[0].value).toBe(0);
    expect(out[out.length - 1].value).toBe(9_999);
  });
});

describe('BucketLayout', () => {
  const layout = new BucketLayout(1_700_000_000_123, 1_731_536_000_456, 500);

  it('puts every timestamp of [first, last] in a bucket 0..count-1, in time order', () => {
    expect(layout.of(layout.first)).toBe(0);
    expect(layout.of(1_731_536_000_456)).toBe(499);
    let previous = 0;
    for (let t = layout.first; t <= 1_731_536_000_456; t += 7_777_777) {
      const b = layout.of(t);
      expect(b).toBeGreaterThanOrEqual(previous);
      previous = b;
    }
  });

  it('starts each bucket exactly at its first timestamp', () => {
    for (let b = 1; b < layout.count; b++) {
      const start = layout.startOf(b);
      expect(layout.of(start)).toBe(b);
      expect(layout.of(start - 1)).toBe(b - 1);
    }
    expect(layout.startOf(layout.count)).toBe(1_731_536_000_456 + 1);
  });

  it('cuts the window into contiguous slices of whole buckets covering all of it', () => {
    const slices = layout.slices(1_000_000, 100_000);
    expect(slices).toHaveLength(10);
    expect(slices[0].start).toBe(layout.first);
    expect(slices.at(-1)?.end).toBe(1_731_536_000_456 + 1);
    for (let i = 1; i < slices.length; i++) {
      expect(slices[i].start).toBe(slices[i - 1].end);
      expect(layout.of(slices[i].start)).toBe(layout.of(slices[i - 1].end - 1) + 1);
    }
    expect(layout.slices(10, 100_000)).toEqual([{ start: layout.first, end: 1_731_536_000_456 + 1 }]);
    expect(new BucketLayout(5, 5, 1).slices(1, 1)).toEqual([{ start: 5, end: 6 }]);
  });
});

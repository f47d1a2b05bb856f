import { describe, expect, it } from 'vitest';
import { downsample } from '../../src/domain/downsample.js';

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

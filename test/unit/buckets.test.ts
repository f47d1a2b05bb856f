import { describe, expect, it } from 'vitest';
import { BucketLayout, bucketCount } from '../../src/domain/buckets.js';

describe('bucketCount', () => {
  it('allows half as many buckets as points, at least one', () => {
    expect(bucketCount(1000)).toBe(500);
    expect(bucketCount(999)).toBe(499);
    expect(bucketCount(2)).toBe(1);
    expect(bucketCount(1)).toBe(1);
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

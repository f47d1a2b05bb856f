import { describe, expect, it } from 'vitest';
import { addDoses, type DoseAmount, type DoseBucket, doseBucketSize, doseBuckets, wholeBuckets } from '../../src/doses/dose-buckets.js';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2026, 10, 22);
const dose = (at: number, duration = 2, volume_ml: number | null = 4): DoseAmount => ({ activated_at: at, duration, volume_ml });

describe('doseBucketSize: 1h or 1d, however written', () => {
  it('reads hours and days in the short, ISO 8601 and seconds forms', () => {
    for (const text of ['1h', 'PT1H', '3600', '60m']) expect(doseBucketSize(text), text).toBe(HOUR);
    for (const text of ['1d', 'P1D', '86400', '24h']) expect(doseBucketSize(text), text).toBe(DAY);
  });

  it('refuses any other size and what is not a duration', () => {
    for (const text of ['5m', '2h', '2d', 'P1W', 'P1M', '0', '-1h', '', 'daily', '1x']) expect(doseBucketSize(text), text).toBeUndefined();
  });
});

describe('wholeBuckets: the window widened to the buckets it overlaps', () => {
  it('moves the start down and the end up to bucket edges; edges already there stay', () => {
    expect(wholeBuckets({ start: T0 + 5 * HOUR, end: T0 + DAY + 1, endInclusive: false }, DAY)).toEqual({
      start: T0,
      end: T0 + 2 * DAY,
      endInclusive: false,
    });
    expect(wholeBuckets({ start: T0, end: T0 + DAY, endInclusive: false }, DAY)).toEqual({ start: T0, end: T0 + DAY, endInclusive: false });
  });

  it('an inclusive end (time_delta up to now) takes the bucket holding it, even on an edge', () => {
    expect(wholeBuckets({ start: T0 - 1, end: T0 + 30 * 60_000, endInclusive: true }, HOUR)).toEqual({
      start: T0 - HOUR,
      end: T0 + HOUR,
      endInclusive: false,
    });
    expect(wholeBuckets({ start: undefined, end: T0, endInclusive: true }, HOUR)).toEqual({
      start: undefined,
      end: T0 + HOUR,
      endInclusive: false,
    });
  });

  it('leaves an open side open', () => {
    expect(wholeBuckets({ endInclusive: false }, DAY)).toEqual({ start: undefined, end: undefined, endInclusive: false });
  });
});

describe('doseBuckets: totals per bucket, ascending, empty ones left out', () => {
  it('counts doses, sums seconds and volumes per UTC hour', () => {
    const doses = [dose(T0), dose(T0 + HOUR - 1, 3, 6), dose(T0 + HOUR), dose(T0 + 5 * HOUR + 10, 1.5, 3)];
    expect(doseBuckets(doses, HOUR)).toEqual([
      { start: T0, end: T0 + HOUR, doses: 2, seconds: 5, volume_ml: 10 },
      { start: T0 + HOUR, end: T0 + 2 * HOUR, doses: 1, seconds: 2, volume_ml: 4 },
      { start: T0 + 5 * HOUR, end: T0 + 6 * HOUR, doses: 1, seconds: 1.5, volume_ml: 3 },
    ]);
  });

  it('per UTC day, midnight to midnight', () => {
    expect(doseBuckets([dose(T0 - 1), dose(T0), dose(T0 + DAY - 1)], DAY)).toEqual([
      { start: T0 - DAY, end: T0, doses: 1, seconds: 2, volume_ml: 4 },
      { start: T0, end: T0 + DAY, doses: 2, seconds: 4, volume_ml: 8 },
    ]);
  });

  it('adds the volumes that are known; null when no dose of the bucket has one', () => {
    expect(doseBuckets([dose(T0, 2, null), dose(T0 + 1, 2, 5)], DAY)[0].volume_ml).toBe(5);
    expect(doseBuckets([dose(T0, 2, null), dose(T0 + 1, 2, null)], DAY)[0].volume_ml).toBeNull();
    expect(doseBuckets([dose(T0, 2, 0)], DAY)[0].volume_ml).toBe(0);
  });

  it('sums without binary noise', () => {
    const [bucket] = doseBuckets([dose(T0, 0.1, 0.1), dose(T0 + 1, 0.2, 0.2)], DAY);
    expect(bucket).toMatchObject({ seconds: 0.3, volume_ml: 0.3 });
  });

  it('answers nothing for no doses', () => {
    expect(doseBuckets([], DAY)).toEqual([]);
  });

  it('folded page by page gives the same as all at once, a bucket spanning two pages included', () => {
    const doses = Array.from({ length: 50 }, (_, n) => dose(T0 + n * 20 * 60_000, 1 + (n % 3), n % 4 === 0 ? null : n));
    const paged: DoseBucket[] = [];
    for (let from = 0; from < doses.length; from += 7) addDoses(paged, doses.slice(from, from + 7), HOUR);
    expect(paged).toEqual(doseBuckets(doses, HOUR));
    expect(paged.reduce((n, b) => n + b.doses, 0)).toBe(50);
  });
});

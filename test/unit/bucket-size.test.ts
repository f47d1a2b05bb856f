import { describe, expect, it } from 'vitest';
import { hasCalendarUnits, parseDuration } from '../../src/domain/duration.js';
import { EARLIEST_INSTANT, LATEST_INSTANT } from '../../src/domain/instants.js';
import { bucketsBeyondYears, readBucketSize } from '../../src/history/bucket-size.js';
import { DAY, HOUR } from '../../src/domain/bucket-sizes.js';

describe('hasCalendarUnits', () => {
  it.each(['P1M', 'P1Y', 'p2m', 'P1Y2M3D', 'P1MT1H', ' P10000Y '])('finds years or months in %j', (text) => {
    expect(hasCalendarUnits(text)).toBe(true);
  });
  it.each(['PT1M', 'P30D', 'P2W', 'PT1H30M', '1m', '5m', '3600', '1 day, 02:00:00', 'soon'])('finds none in %j', (text) => {
    expect(hasCalendarUnits(text)).toBe(false);
  });
  it('leaves time_delta reading them as 30 and 365 days', () => {
    expect(parseDuration('P1M')).toBe(30 * DAY);
    expect(parseDuration('P1Y')).toBe(365 * DAY);
  });
});

describe('readBucketSize', () => {
  it.each([
    ['5m', 5 * 60_000],
    ['1h', HOUR],
    ['PT1M', 60_000],
    ['P30D', 30 * DAY],
    ['P2W', 14 * DAY],
    ['3600', HOUR],
  ])('reads %j', (text, ms) => {
    expect(readBucketSize(text)).toBe(ms);
  });

  it.each(['P1M', 'P1Y', 'P10000Y', 'P1Y2D'])('refuses the calendar units of %j, pointing to days', (text) => {
    expect(readBucketSize(text)).toEqual({ msg: expect.stringMatching(/no fixed length.*P30D/), type: 'value_error' });
  });

  it.each(['soon', '0', '0.0005', '-5m'])('refuses %j as no positive duration', (text) => {
    expect(readBucketSize(text)).toMatchObject({ type: 'duration_parsing' });
  });

  it('refuses a bucket longer than the years 1 to 9999', () => {
    expect(readBucketSize('P3653000D')).toEqual({
      msg: 'A bucket should be at most the span of the years 1 to 9999',
      type: 'duration_too_long',
    });
    expect(readBucketSize('P3650000D')).toBe(3_650_000 * DAY);
  });
});

describe('bucketsBeyondYears', () => {
  const now = Date.UTC(2026, 10, 22);
  it('accepts buckets within the years 1 to 9999, up to the last millisecond', () => {
    expect(bucketsBeyondYears(now - DAY, now, HOUR)).toBeUndefined();
    expect(bucketsBeyondYears(EARLIEST_INSTANT, EARLIEST_INSTANT + 1, DAY)).toBeUndefined();
    expect(bucketsBeyondYears(LATEST_INSTANT - HOUR, LATEST_INSTANT, 1)).toBeUndefined();
  });

  it('refuses a bucket that would end after 9999 (P10000Y in days: aligned on 1970, it ends in 11963)', () => {
    expect(bucketsBeyondYears(now - DAY, now, 3_650_000 * DAY)).toEqual({
      msg: 'Buckets of this size would start before the year 1 or end after the year 9999 (the last would end in the year 11963); give a smaller bucket',
      type: 'value_error',
    });
    // A day's bucket holding the last day of 9999 ends on the first instant of 10000.
    expect(bucketsBeyondYears(LATEST_INSTANT - HOUR, LATEST_INSTANT, DAY)?.msg).toMatch(/the last would end in the year 10000/);
  });

  it('refuses a bucket that would start before the year 1', () => {
    // 0001-01-01 is a Monday; weeks align on 1970-01-01, a Thursday.
    expect(bucketsBeyondYears(EARLIEST_INSTANT, EARLIEST_INSTANT + DAY, 7 * DAY)?.msg).toMatch(/the first would start in the year 0\)/);
  });
});

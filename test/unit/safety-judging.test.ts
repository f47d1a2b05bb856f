import { describe, expect, it } from 'vitest';
import { correctiveDirection, DEFAULT_LOCKOUT_AFTER, judgeDose, nextUnansweredStreak, shouldLockOut } from '../../src/safety/index.js';

const AT = 1_800_000_000_000;
const dose = (value_before: number | null) => ({ activated_at: AT, value_before });
/** One reading `seconds` after the dose. */
const after = (value: number, seconds: number) => [{ value, timestamp: AT + seconds * 1000 }];

describe('judgeDose: directions', () => {
  it('high (acid on a high pH): answered when the reading went down by more than min_response', () => {
    expect(judgeDose(dose(7), 'high', 6, 0.1, after(6.8, 60), 60, 300)).toBe(true);
    expect(judgeDose(dose(7), 'high', 6, 0.1, after(6.95, 60), 60, 300)).toBe(false);
    expect(judgeDose(dose(7), 'high', 6, 0.1, after(7.5, 60), 60, 300)).toBe(false);
  });

  it('low: answered when the reading went up by more than min_response', () => {
    expect(judgeDose(dose(5), 'low', 6, 0.1, after(5.2, 60), 60, 300)).toBe(true);
    expect(judgeDose(dose(5), 'low', 6, 0.1, after(5.05, 60), 60, 300)).toBe(false);
    expect(judgeDose(dose(5), 'low', 6, 0.1, after(4.5, 60), 60, 300)).toBe(false);
  });

  it('low_or_high: answered when the reading moved toward condition_value, from either side', () => {
    expect(judgeDose(dose(7), 'low_or_high', 6, 0.1, after(6.5, 60), 60, 300)).toBe(true);
    expect(judgeDose(dose(7), 'low_or_high', 6, 0.1, after(7.5, 60), 60, 300)).toBe(false);
    expect(judgeDose(dose(5), 'low_or_high', 6, 0.1, after(5.5, 60), 60, 300)).toBe(true);
    expect(judgeDose(dose(5), 'low_or_high', 6, 0.1, after(4.5, 60), 60, 300)).toBe(false);
    // Past the target still moved in the corrective direction.
    expect(judgeDose(dose(7), 'low_or_high', 6, 0.1, after(5.5, 60), 60, 300)).toBe(true);
  });

  it('low_or_high taken exactly at condition_value has no corrective direction: never judged', () => {
    expect(judgeDose(dose(6), 'low_or_high', 6, 0, after(5, 60), 60, 300)).toBeNull();
    expect(correctiveDirection('low_or_high', 6, 6)).toBeNull();
  });

  it('always, and a dose without value_before, are never judged', () => {
    expect(judgeDose(dose(7), 'always', 6, 0, after(1, 60), 60, 300)).toBeNull();
    expect(judgeDose(dose(null), 'high', 6, 0, after(1, 60), 60, 300)).toBeNull();
    expect(judgeDose(dose(Number.NaN), 'high', 6, 0, after(1, 60), 60, 300)).toBeNull();
    expect(judgeDose(dose(7), 'sometimes' as never, 6, 0, after(1, 60), 60, 300)).toBeNull();
  });
});

describe('judgeDose: min_response and the delay', () => {
  it('a move of exactly min_response is not enough (strictly more)', () => {
    expect(judgeDose(dose(7), 'high', 6, 0.5, after(6.5, 60), 60, 300)).toBe(false);
    expect(judgeDose(dose(7), 'high', 6, 0.5, after(6.49, 60), 60, 300)).toBe(true);
    expect(judgeDose(dose(7), 'high', 6, 0, after(7, 60), 60, 300)).toBe(false);
    expect(judgeDose(dose(7), 'high', 6, 0, after(6.999, 60), 60, 300)).toBe(true);
  });

  it('min_response null counts as 0', () => {
    expect(judgeDose(dose(7), 'high', 6, null, after(6.999, 60), 60, 300)).toBe(true);
    expect(judgeDose(dose(7), 'high', 6, null, after(7, 60), 60, 300)).toBe(false);
  });

  it('a reading exactly response_delay after the dose judges it; one a millisecond earlier does not', () => {
    expect(judgeDose(dose(7), 'high', 6, 0, [{ value: 6, timestamp: AT + 60_000 }], 60, 300)).toBe(true);
    expect(judgeDose(dose(7), 'high', 6, 0, [{ value: 6, timestamp: AT + 59_999 }], 60, 300)).toBeNull();
  });

  it('response_delay null waits the activation period', () => {
    expect(judgeDose(dose(7), 'high', 6, 0, after(6, 299.999), null, 300)).toBeNull();
    expect(judgeDose(dose(7), 'high', 6, 0, after(6, 300), null, 300)).toBe(true);
  });

  it('the newest reading taken late enough decides, in whatever order they come', () => {
    const readings = [
      { value: 6, timestamp: AT + 120_000 },
      { value: 7.2, timestamp: AT + 180_000 },
      { value: 5, timestamp: AT + 10_000 },
    ];
    expect(judgeDose(dose(7), 'high', 6, 0, readings, 60, 300)).toBe(false);
    expect(judgeDose(dose(7), 'high', 6, 0, readings.slice(0, 1).concat(readings.slice(2)), 60, 300)).toBe(true);
  });

  it('without a reading late enough the dose is not judged yet', () => {
    expect(judgeDose(dose(7), 'high', 6, 0, [], 60, 300)).toBeNull();
    expect(judgeDose(dose(7), 'high', 6, 0, [{ value: 1, timestamp: AT - 1 }], 0, 300)).toBeNull();
    expect(judgeDose(dose(7), 'high', 6, 0, [{ value: 1, timestamp: Number.NaN }], 0, 300)).toBeNull();
  });

  it('a reading that cannot be compared judges the dose unanswered', () => {
    expect(judgeDose(dose(7), 'high', 6, 0, after(Number.NaN, 60), 60, 300)).toBe(false);
    expect(judgeDose(dose(7), 'high', 6, Number.NaN, after(1, 60), 60, 300)).toBe(false);
  });
});

describe('unanswered streak and lockout', () => {
  it('answered resets, unanswered adds one, not judged leaves it', () => {
    expect(nextUnansweredStreak(7, true)).toBe(0);
    expect(nextUnansweredStreak(7, false)).toBe(8);
    expect(nextUnansweredStreak(7, null)).toBe(7);
    expect(nextUnansweredStreak(0, true)).toBe(0);
  });

  it('locks out when the streak reaches lockout_after, not before', () => {
    expect(shouldLockOut(19, 20)).toBe(false);
    expect(shouldLockOut(20, 20)).toBe(true);
    expect(shouldLockOut(21, 20)).toBe(true);
    expect(shouldLockOut(1, 1)).toBe(true);
    expect(shouldLockOut(0, 1)).toBe(false);
  });

  it('defaults to 20; null turns lockout off; NaN locks out', () => {
    expect(DEFAULT_LOCKOUT_AFTER).toBe(20);
    expect(shouldLockOut(19)).toBe(false);
    expect(shouldLockOut(20)).toBe(true);
    expect(shouldLockOut(20, undefined)).toBe(true);
    expect(shouldLockOut(1_000_000, null)).toBe(false);
    expect(shouldLockOut(0, Number.NaN)).toBe(true);
    expect(shouldLockOut(Number.NaN, 20)).toBe(true);
  });

  it('a run of judgements: the streak locks out on the twentieth unanswered in a row', () => {
    const answers = [...Array<boolean | null>(10).fill(false), true, ...Array<boolean | null>(19).fill(false), null, false];
    let streak = 0;
    const lockedAt = answers.findIndex((answered) => shouldLockOut((streak = nextUnansweredStreak(streak, answered))));
    expect(lockedAt).toBe(answers.length - 1);
    expect(streak).toBe(20);
  });
});

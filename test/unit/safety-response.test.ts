/** Judging doses by outcome: the filtered signal against the probe's noise, the wrong way, the expected effect, unusual use. */
import { describe, expect, it } from 'vitest';
import {
  distanceToCritical,
  exceedsExpectedEffect,
  isUnusual,
  judgeFiltered,
  judgeResponse,
  learnedEffectPerSecond,
  nextReversedStreak,
  probeNoise,
  shouldLockOutReversed,
  usage,
} from '../../src/safety/index.js';
import { medianSpread, MIN_NOISE_DIFFERENCES, RESPONSE_WINDOW_READINGS } from '../../src/safety/response.js';
import { MIN_USUAL_DAYS } from '../../src/safety/usual.js';

const AT = 1_800_000_000_000;
const MIN = 60_000;
const DAY = 24 * 3600 * 1000;

/** A seeded source of uniform noise in [-amplitude, amplitude] (mulberry32), the same on every machine. */
function noiseSource(seed: number, amplitude: number) {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((((t ^ (t >>> 14)) >>> 0) / 4294967296) * 2 - 1) * amplitude;
  };
}

/**
 * Readings every minute from 2 h before a dose at AT to 10 min after it: a tank at 6.8 rising by
 * `risePerHour`, lowered by `effect` from 2 min after the dose (mixing), with noise.
 */
function around(effect: number, noise: () => number, risePerHour = 0.12) {
  const readings = [];
  for (let m = -120; m <= 10; m++) {
    const truth = 6.8 + (risePerHour * m) / 60 - (m >= 2 ? effect : 0);
    readings.push({ value: Math.round((truth + noise()) * 1000) / 1000, timestamp: AT + m * MIN });
  }
  return readings;
}

describe('probeNoise', () => {
  it('is null with fewer than the differences it needs', () => {
    expect(probeNoise([1, 2, 3, 4])).toBeNull();
    expect(probeNoise(Array.from({ length: MIN_NOISE_DIFFERENCES + 1 }, (_, i) => i % 2))).not.toBeNull();
  });

  it('measures the spread of noise, not a slow trend or one step', () => {
    const noise = noiseSource(1, 0.05);
    const values = Array.from({ length: 120 }, (_, i) => 6 + i * 0.002 + (i > 60 ? -0.3 : 0) + noise());
    const sigma = probeNoise(values)!;
    // Uniform ±0.05 has a standard deviation of 0.0289.
    expect(sigma).toBeGreaterThan(0.02);
    expect(sigma).toBeLessThan(0.04);
  });

  it('is half the smallest step of a probe that rounds away its noise, and 0 for a frozen one', () => {
    expect(probeNoise([7, 7, 7, 7.01, 7, 7, 7, 7])).toBeCloseTo(0.005, 6);
    expect(probeNoise([7, 7, 7, 7, 7, 7])).toBe(0);
  });

  it('ignores readings that are not numbers', () => {
    expect(probeNoise([NaN, NaN, NaN, NaN, NaN, NaN])).toBeNull();
  });
});

describe('medianSpread', () => {
  it('is sigma for one reading, the mean’s for two, and shrinks with more', () => {
    expect(medianSpread(1, 1)).toBe(1);
    expect(medianSpread(1, 2)).toBeCloseTo(Math.SQRT1_2, 9);
    expect(medianSpread(1, 3)).toBeLessThan(1);
    expect(medianSpread(1, 9)).toBeLessThan(medianSpread(1, 3));
  });
});

describe('judgeFiltered', () => {
  it('waits until enough readings are at least the delay after the dose', () => {
    const readings = around(0.1, () => 0).filter((r) => r.timestamp <= AT + 6 * MIN);
    expect(judgeFiltered(AT, -1, readings, 300)).toBeNull();
    const enough = around(0.1, () => 0).filter((r) => r.timestamp <= AT + (5 + RESPONSE_WINDOW_READINGS - 1) * MIN);
    expect(judgeFiltered(AT, -1, enough, 300)).not.toBeNull();
  });

  it('waits without a reading before the dose or too few to measure the noise', () => {
    const after = around(0.1, () => 0).filter((r) => r.timestamp > AT);
    expect(judgeFiltered(AT, -1, after, 300)).toBeNull();
    const few = around(0.1, () => 0).filter((r) => r.timestamp >= AT - MIN);
    expect(judgeFiltered(AT, -1, few.slice(0, 1).concat(few.slice(6, 9)), 300)).toBeNull();
  });

  it('answers a clear move in the corrective direction, either way round', () => {
    expect(judgeFiltered(AT, -1, around(0.1, noiseSource(3, 0.01)), 300)).toMatchObject({ answered: true, reversed: false });
    const rising = around(-0.1, noiseSource(3, 0.01), 0);
    expect(judgeFiltered(AT, 1, rising, 300)).toMatchObject({ answered: true, reversed: false });
  });

  it('finds the wrong way beyond the noise reversed, and a move inside the noise neither', () => {
    expect(judgeFiltered(AT, -1, around(-0.2, noiseSource(4, 0.01)), 300)).toMatchObject({ answered: false, reversed: true });
    expect(judgeFiltered(AT, -1, around(0, noiseSource(4, 0.01), 0), 300)).toMatchObject({ answered: false, reversed: false });
  });

  it('compares the move with its threshold strictly', () => {
    const judged = judgeFiltered(AT, -1, around(0.1, noiseSource(5, 0.02)), 300)!;
    expect(judged.answered).toBe(judged.moved > judged.threshold);
  });

  // The rule's reason to exist: at ±0.03 and ±0.05 pH of noise, an empty bottle's doses are not
  // answered and a working pump's (0.1 pH a dose, against a rising tank) are not faked as misses.
  for (const amplitude of [0.03, 0.05]) {
    it(`at ±${amplitude} pH: an empty bottle is answered by noise in at most 2 % of doses, never 3 reversed`, () => {
      let answered = 0;
      let reversed = 0;
      for (let seed = 1; seed <= 400; seed++) {
        const judged = judgeFiltered(AT, -1, around(0, noiseSource(seed, amplitude)), 300)!;
        if (judged.answered) answered++;
        if (judged.reversed) reversed++;
      }
      expect(answered / 400).toBeLessThanOrEqual(0.02);
      expect(reversed / 400).toBeLessThanOrEqual(0.05);
    });

    it(`at ±${amplitude} pH: a working pump is answered in most doses and never reversed`, () => {
      let answered = 0;
      let reversed = 0;
      for (let seed = 1; seed <= 400; seed++) {
        const judged = judgeFiltered(AT, -1, around(0.1, noiseSource(seed, amplitude)), 300)!;
        if (judged.answered) answered++;
        if (judged.reversed) reversed++;
      }
      // A miss is one in a row of misses at most this often: 20 in a row never happen in practice.
      expect(answered / 400).toBeGreaterThan(0.5);
      expect(reversed).toBe(0);
    });
  }
});

describe('judgeResponse', () => {
  const dose = (value_before: number | null) => ({ activated_at: AT, value_before });

  it('with an explicit min_response judges the newest late reading against value_before, never reversed, and keeps its move', () => {
    const readings = [{ value: 6.7, timestamp: AT + 6 * MIN }];
    expect(judgeResponse(dose(6.8), 'high', 6.5, 0.05, readings, 300, 300)).toEqual({
      answered: true,
      reversed: false,
      response: expect.closeTo(0.1),
    });
    expect(judgeResponse(dose(6.8), 'high', 6.5, 0.2, readings, 300, 300)).toEqual({
      answered: false,
      reversed: false,
      response: expect.closeTo(0.1),
    });
    expect(judgeResponse(dose(6.8), 'high', 6.5, 0.05, readings, 600, 300)).toBeNull();
  });

  it('automatic: judged on the filtered readings, with the move kept', () => {
    const judged = judgeResponse(dose(6.8), 'high', 6.5, null, around(0.1, noiseSource(9, 0.01)), 300, 300)!;
    expect(judged.answered).toBe(true);
    expect(judged.response).toBeGreaterThan(0.05);
  });

  it('automatic: the delay defaults to the period', () => {
    const readings = around(0.1, () => 0).filter((r) => r.timestamp <= AT + 7 * MIN);
    expect(judgeResponse(dose(6.8), 'high', 6.5, null, readings, null, 300)).not.toBeNull();
    expect(judgeResponse(dose(6.8), 'high', 6.5, null, readings, null, 600)).toBeNull();
  });

  it('automatic: never judges without value_before or a direction', () => {
    expect(
      judgeResponse(
        dose(null),
        'high',
        6.5,
        null,
        around(0.1, () => 0),
        300,
        300,
      ),
    ).toBeNull();
    expect(
      judgeResponse(
        dose(NaN),
        'high',
        6.5,
        null,
        around(0.1, () => 0),
        300,
        300,
      ),
    ).toBeNull();
    expect(
      judgeResponse(
        dose(6.5),
        'low_or_high',
        6.5,
        null,
        around(0.1, () => 0),
        300,
        300,
      ),
    ).toBeNull();
    expect(
      judgeResponse(
        dose(6.8),
        'always',
        6.5,
        null,
        around(0.1, () => 0),
        300,
        300,
      ),
    ).toBeNull();
  });
});

describe('reversed runs', () => {
  const judged = (reversed: boolean) => ({ answered: false, reversed, response: -0.2 });

  it('a reversed dose adds one, any other judged dose ends the run, an unjudged one leaves it', () => {
    expect(nextReversedStreak(2, judged(true))).toBe(3);
    expect(nextReversedStreak(2, judged(false))).toBe(0);
    expect(nextReversedStreak(2, { answered: true, reversed: false, response: 0.1 })).toBe(0);
    expect(nextReversedStreak(2, null)).toBe(2);
  });

  it('locks out at lockout_reversed_after (default 3), never when off, at once on NaN', () => {
    expect(shouldLockOutReversed(2)).toBe(false);
    expect(shouldLockOutReversed(3)).toBe(true);
    expect(shouldLockOutReversed(4, 5)).toBe(false);
    expect(shouldLockOutReversed(5, 5)).toBe(true);
    expect(shouldLockOutReversed(1000, null)).toBe(false);
    expect(shouldLockOutReversed(0, NaN)).toBe(true);
  });
});

describe('expected effect', () => {
  const answered = (response: number, duration = 2) => ({ answered: true, response, duration });

  it('learns the median move per second of the answered doses once there are 3', () => {
    expect(learnedEffectPerSecond([answered(0.1), answered(0.12)])).toBeNull();
    expect(learnedEffectPerSecond([answered(0.1), answered(0.12), answered(0.3)])).toBeCloseTo(0.06, 9);
    expect(learnedEffectPerSecond([answered(0.1), answered(0.12), answered(0.14), answered(0.3)])).toBeCloseTo(0.065, 9);
  });

  it('learns nothing from unanswered doses, unmeasured moves, or zero run time', () => {
    const skipped = [
      { answered: false, response: 0.1, duration: 2 },
      { answered: true, response: null, duration: 2 },
      { answered: true, response: 0.1, duration: 0 },
      { answered: true, response: -0.1, duration: 2 },
    ];
    expect(learnedEffectPerSecond([...skipped, answered(0.1), answered(0.1)])).toBeNull();
  });

  it('measures the distance to the critical threshold on the side the doses push toward', () => {
    const thresholds = { threshold_critically_low: 5, threshold_critically_high: 8 };
    expect(distanceToCritical(-1, 6.5, thresholds)).toBeCloseTo(1.5, 9);
    expect(distanceToCritical(1, 6.5, thresholds)).toBeCloseTo(1.5, 9);
    expect(distanceToCritical(-1, 4.5, thresholds)).toBeNull();
    expect(distanceToCritical(1, 8, thresholds)).toBeNull();
  });

  it('bounds unanswered doses once together they should have moved more than half the distance', () => {
    // 0.05 pH per second, 1.5 pH to the critical threshold: half is 0.75, i.e. 15 s of run.
    expect(exceedsExpectedEffect(15, 0.05, 1.5)).toBe(false);
    expect(exceedsExpectedEffect(16, 0.05, 1.5)).toBe(true);
    expect(exceedsExpectedEffect(1e6, null, 1.5)).toBe(false);
    expect(exceedsExpectedEffect(1e6, 0.05, null)).toBe(false);
  });
});

describe('usual consumption', () => {
  const settings = { usual_days: 7, usual_window: 6 * 3600, unusual_factor: 2 };
  /** `perHour` doses of `amount` every hour for `days` days before NOW. */
  const steady = (now: number, days: number, perHour = 1, amount = 2) => {
    const doses = [];
    for (let t = now - days * DAY + 1; t <= now; t += 3600_000 / perHour) doses.push({ activated_at: t, amount });
    return doses;
  };
  const NOW = AT;

  it(`learns nothing with fewer than ${MIN_USUAL_DAYS} days of doses`, () => {
    const use = usage(steady(NOW, MIN_USUAL_DAYS - 1), NOW, settings, null);
    expect(use.usual).toBeNull();
    expect(use.ratio).toBeNull();
    expect(isUnusual(use, 2)).toBe(false);
  });

  it('the usual amount per window is the median day scaled to the window; the ratio compares the last window', () => {
    const use = usage(steady(NOW, 5), NOW, settings, null);
    expect(use.days).toBe(5);
    expect(use.usual).toBeCloseTo(12, 6);
    expect(use.recent).toBeCloseTo(12, 6);
    expect(use.ratio).toBeCloseTo(1, 6);
    expect(isUnusual(use, 2)).toBe(false);
  });

  it('holds beyond factor × usual, not at it; never with the factor off', () => {
    const base = steady(NOW - 6 * 3600_000, 5);
    // The last 6 h: 2 doses an hour of 2 → 24 against a usual of about 12.
    const busy = [...base, ...steady(NOW, 0.25, 2)];
    const use = usage(busy, NOW, settings, null);
    expect(use.ratio!).toBeGreaterThan(1.5);
    expect(isUnusual(use, use.ratio! - 0.01)).toBe(true);
    expect(isUnusual(use, use.ratio!)).toBe(false);
    expect(isUnusual(use, null)).toBe(false);
  });

  it('days without doses are not counted, and nothing before `since` is learned from', () => {
    const gappy = steady(NOW, 5).filter((d) => Math.floor((NOW - d.activated_at) / DAY) !== 2);
    expect(usage(gappy, NOW, settings, null).days).toBe(4);
    expect(usage(steady(NOW, 5), NOW, settings, NOW - 2.5 * DAY).usual).toBeNull();
  });

  it('counts only the past usual_days days', () => {
    expect(usage(steady(NOW, 10), NOW, settings, null).days).toBe(7);
    expect(usage(steady(NOW, 10), NOW, { ...settings, usual_days: 3 }, null).days).toBe(3);
  });
});

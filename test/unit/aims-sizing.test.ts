import { describe, expect, it } from 'vitest';
import { effectiveGain, learnedGain, MIN_ANSWERED_FOR_GAIN, type AnsweredDose } from '../../src/aims/gain.js';
import { aimError, gapToSetpoint, outsideBand } from '../../src/aims/setpoint.js';
import { durationBounds, sizeDose, type SizingSettings } from '../../src/aims/sizing.js';

const aim = { setpoint: 6.0, band: 0.2 };

describe('set point and band', () => {
  it('a high actuator doses only above setpoint + band', () => {
    expect(outsideBand('high', 6.2, aim)).toBe(false);
    expect(outsideBand('high', 6.2001, aim)).toBe(true);
    expect(outsideBand('high', 5.0, aim)).toBe(false);
  });
  it('a low actuator doses only below setpoint − band', () => {
    expect(outsideBand('low', 5.8, aim)).toBe(false);
    expect(outsideBand('low', 5.7999, aim)).toBe(true);
    expect(outsideBand('low', 7, aim)).toBe(false);
  });
  it('low_or_high doses on either side, always always, unknown never', () => {
    expect(outsideBand('low_or_high', 6.3, aim)).toBe(true);
    expect(outsideBand('low_or_high', 5.7, aim)).toBe(true);
    expect(outsideBand('low_or_high', 6.1, aim)).toBe(false);
    expect(outsideBand('always', 6, aim)).toBe(true);
    expect(outsideBand('schedule', 9, aim)).toBe(false);
  });
  it('band 0 is the set point itself; a NaN reading never doses; a negative band counts as 0', () => {
    expect(outsideBand('high', 6.0, { setpoint: 6, band: 0 })).toBe(false);
    expect(outsideBand('high', 6.01, { setpoint: 6, band: 0 })).toBe(true);
    expect(outsideBand('high', Number.NaN, aim)).toBe(false);
    expect(outsideBand('low', Number.NaN, aim)).toBe(false);
    expect(outsideBand('high', 6.01, { setpoint: 6, band: -1 })).toBe(true);
  });
  it('error is reading minus set point; the gap is on the corrective side only', () => {
    expect(aimError(6.5, 6)).toBeCloseTo(0.5);
    expect(gapToSetpoint('high', 6.5, 6)).toBeCloseTo(0.5);
    expect(gapToSetpoint('high', 5.5, 6)).toBe(0);
    expect(gapToSetpoint('low', 5.5, 6)).toBeCloseTo(0.5);
    expect(gapToSetpoint('low', 6.5, 6)).toBe(0);
    expect(gapToSetpoint('low_or_high', 5.5, 6)).toBeCloseTo(0.5);
    expect(gapToSetpoint('always', 5.5, 6)).toBe(0);
    expect(gapToSetpoint('high', Number.NaN, 6)).toBe(0);
  });
});

const dose = (i: number, duration: number, move: number): AnsweredDose => ({ activated_at: 1000 * i, duration, move });

describe('learned gain', () => {
  it('needs at least 3 answered doses', () => {
    expect(MIN_ANSWERED_FOR_GAIN).toBe(3);
    expect(learnedGain([])).toBeNull();
    expect(learnedGain([dose(1, 2, 0.2), dose(2, 2, 0.2)])).toBeNull();
    expect(learnedGain([dose(1, 2, 0.2), dose(2, 2, 0.2), dose(3, 2, 0.2)])).toBeCloseTo(0.1);
  });
  it('is the median move per second, so one odd dose does not steer it', () => {
    expect(learnedGain([dose(1, 1, 0.1), dose(2, 1, 5), dose(3, 1, 0.12)])).toBeCloseTo(0.12);
    expect(learnedGain([dose(1, 1, 0.1), dose(2, 1, 0.2), dose(3, 1, 0.3), dose(4, 1, 0.4)])).toBeCloseTo(0.25);
  });
  it('uses only the newest 5, whatever order they come in', () => {
    const old = [dose(1, 1, 9), dose(2, 1, 9), dose(3, 1, 9)];
    const recent = [dose(10, 1, 0.1), dose(11, 1, 0.1), dose(12, 1, 0.1), dose(13, 1, 0.1), dose(14, 1, 0.1)];
    expect(learnedGain([...recent, ...old].reverse())).toBeCloseTo(0.1);
  });
  it('skips doses of no run time or an unreadable move', () => {
    expect(learnedGain([dose(1, 0, 0.2), dose(2, 1, Number.NaN), dose(3, 1, 0.2), dose(4, 1, 0.2)])).toBeNull();
  });
  it('turns zero or negative when the pump stops moving the reading', () => {
    expect(learnedGain([dose(1, 1, 0), dose(2, 1, 0), dose(3, 1, 0.1)])).toBe(0);
    expect(learnedGain([dose(1, 1, -0.1), dose(2, 1, -0.1), dose(3, 1, 0.1)])).toBeCloseTo(-0.1);
  });
});

describe('the gain a dose is sized with', () => {
  it('learned when there is one, else initial_gain, else none', () => {
    expect(effectiveGain(0.1, 0.5)).toEqual({ value: 0.1, reported: 0.1, source: 'learned' });
    expect(effectiveGain(null, 0.5)).toEqual({ value: 0.5, reported: 0.5, source: 'initial' });
    expect(effectiveGain(null, null)).toEqual({ value: null, reported: null, source: 'none' });
    expect(effectiveGain(null, 0)).toEqual({ value: null, reported: null, source: 'none' });
  });
  it('a learned gain of zero or less is reported but not used, and initial_gain does not replace it', () => {
    expect(effectiveGain(0, 0.5)).toEqual({ value: null, reported: 0, source: 'learned' });
    expect(effectiveGain(-0.2, 0.5)).toEqual({ value: null, reported: -0.2, source: 'learned' });
  });
});

const settings = (s: Partial<SizingSettings> = {}): SizingSettings => ({
  dose_fraction: null,
  min_duration: null,
  max_duration: null,
  activation_duration: 10,
  ...s,
});

describe('proportional sizing', () => {
  it('closes dose_fraction (default 0.8) of the gap', () => {
    expect(sizeDose(1, 0.1, settings())).toBeCloseTo(8);
    expect(sizeDose(1, 0.1, settings({ dose_fraction: 0.5 }))).toBeCloseTo(5);
    expect(sizeDose(1, 0.1, settings({ dose_fraction: 1 }))).toBeCloseTo(10);
  });
  it('is clamped to max_duration, by default activation_duration', () => {
    expect(sizeDose(10, 0.1, settings())).toBe(10);
    expect(sizeDose(10, 0.1, settings({ max_duration: 30 }))).toBe(30);
    expect(sizeDose(10, 0.1, settings({ max_duration: 30, activation_duration: 5 }))).toBe(30);
  });
  it('never closes more than dose_fraction of the gap, even under min_duration', () => {
    // 0.8 × 0.05 / 0.1 = 0.4 s, shorter than the 1 s minimum: a 1 s dose would cross the set point.
    expect(sizeDose(0.05, 0.1, settings())).toBeCloseTo(0.4);
    expect(sizeDose(0.05, 0.1, settings({ min_duration: 2 }))).toBeCloseTo(0.4);
  });
  it('answers min_duration (default 1 s) when no gain is known, zero, negative or unreadable', () => {
    for (const gain of [null, 0, -0.5, Number.NaN, Infinity]) {
      expect(sizeDose(2, gain, settings())).toBe(1);
      expect(sizeDose(2, gain, settings({ min_duration: 0.5 }))).toBe(0.5);
    }
  });
  it('is no dose without a gap or with a zero maximum', () => {
    expect(sizeDose(0, 0.1, settings())).toBe(0);
    expect(sizeDose(-1, 0.1, settings())).toBe(0);
    expect(sizeDose(Number.NaN, 0.1, settings())).toBe(0);
    expect(sizeDose(1, 0.1, settings({ activation_duration: 0 }))).toBe(0);
    expect(sizeDose(1, null, settings({ activation_duration: 0 }))).toBe(0);
  });
  it('rounds down to whole milliseconds', () => {
    expect(sizeDose(1, 0.3, settings())).toBe(2.666);
  });
  it('a minimum over the maximum is brought down to it', () => {
    expect(durationBounds(settings({ min_duration: 5, activation_duration: 2 }))).toEqual({ min: 2, max: 2 });
    expect(sizeDose(1, null, settings({ min_duration: 5, activation_duration: 2 }))).toBe(2);
  });
});

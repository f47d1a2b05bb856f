import { describe, expect, it } from 'vitest';
import { ACCEPTED_SLOPE, fitCalibration } from '../../src/records/calibration-fit.js';

const points = (...pairs: [reference: number, reading: number][]) => pairs.map(([reference, reading]) => ({ reference, reading }));

describe('fitCalibration (docs/api.md §15)', () => {
  it('one point: an offset calibration, slope 1, offset reading − reference, accepted whatever the offset', () => {
    expect(fitCalibration(points([7, 7.25]))).toEqual({ slope: 1, offset: 0.25, accepted: true });
    expect(fitCalibration(points([4, 1]))).toEqual({ slope: 1, offset: -3, accepted: true });
    expect(fitCalibration(points([0, 0]))).toEqual({ slope: 1, offset: 0, accepted: true });
  });

  it('one point whose offset overflows a double cannot be fitted', () => {
    expect(fitCalibration(points([-1e308, 1e308]))).toBe('not_finite');
  });

  it('two points: the line through them', () => {
    expect(fitCalibration(points([4, 4.5], [7, 7.5]))).toEqual({ slope: 1, offset: 0.5, accepted: true });
    const fit = fitCalibration(points([4, 5], [10, 11.5]));
    if (typeof fit === 'string') throw new Error(fit);
    expect(fit.slope).toBeCloseTo(6.5 / 6, 12);
    expect(fit.offset).toBeCloseTo(5 - (6.5 / 6) * 4, 12);
    expect(fit.accepted).toBe(true);
  });

  it('least squares over up to five points: reading ≈ slope × reference + offset', () => {
    // Readings 0.95 × reference + 0.1, with noise that cancels out in the fit.
    const fit = fitCalibration(points([4, 3.9 + 0.02], [7, 6.75 - 0.04], [10, 9.6 + 0.02], [1, 1.05], [13, 12.45]));
    expect(fit).toMatchObject({ accepted: true });
    if (typeof fit === 'string') throw new Error(fit);
    expect(fit.slope).toBeCloseTo(0.95, 2);
    expect(fit.offset).toBeCloseTo(0.1, 1);
    // The points in any order give the same line.
    expect(fitCalibration(points([7, 6.71], [13, 12.45], [1, 1.05], [10, 9.62], [4, 3.92]))).toEqual(fit);
  });

  it('accepts a slope from 0.9 to 1.1, both bounds included, and refuses beyond', () => {
    expect(ACCEPTED_SLOPE).toEqual({ min: 0.9, max: 1.1 });
    expect(fitCalibration(points([0, 0], [10, 9]))).toMatchObject({ slope: 0.9, accepted: true });
    expect(fitCalibration(points([0, 0], [10, 11]))).toMatchObject({ slope: 1.1, accepted: true });
    // 1.1 and 0.9 as the arithmetic of real buffers lands on them (a hair off in binary) are on the bound.
    expect(fitCalibration(points([4, 4.4], [7, 7.7]))).toMatchObject({ accepted: true });
    expect(fitCalibration(points([4, 3.6], [7, 6.3]))).toMatchObject({ accepted: true });
    expect(fitCalibration(points([0, 0], [10, 8.99]))).toMatchObject({ accepted: false });
    expect(fitCalibration(points([0, 0], [10, 11.01]))).toMatchObject({ accepted: false });
    expect(fitCalibration(points([4, 7], [7, 4]))).toMatchObject({ slope: -1, accepted: false });
  });

  it('two points or more with every reference equal: no slope to fit', () => {
    expect(fitCalibration(points([7, 7], [7, 7.1]))).toBe('references_equal');
    expect(fitCalibration(points([0.1, 1], [0.1, 2], [0.1, 3]))).toBe('references_equal');
    // Equal readings are fine: a probe that reads nothing has slope 0 (refused, but fitted).
    expect(fitCalibration(points([4, 5], [7, 5]))).toEqual({ slope: 0, offset: 5, accepted: false });
  });

  it('points too large for the arithmetic of the fit cannot be fitted', () => {
    expect(fitCalibration(points([1e308, 1e308], [-1e308, -1e308]))).toBe('not_finite');
  });
});

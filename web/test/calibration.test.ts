import { describe, expect, it } from 'vitest';
import { ACCEPTED_SLOPE as SERVICE_ACCEPTED, fitCalibration } from '../../src/records/calibration-fit.js';
import {
  ACCEPTED_SLOPE,
  bufferPresets,
  calibrationStatus,
  calibrationVerdict,
  fitLine,
  offsetText,
  parsePoints,
  slopePercent,
} from '../src/domain/calibration';

const NOW = Date.parse('2025-11-25T12:00:00Z');
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe('fitLine', () => {
  it('fits a perfect probe as slope 1, offset 0', () => {
    expect(
      fitLine([
        { reference: 4, reading: 4 },
        { reference: 7, reading: 7 },
      ]),
    ).toEqual({ slope: 1, offset: 0 });
  });

  it('fits two points exactly', () => {
    const fit = fitLine([
      { reference: 4, reading: 4.2 },
      { reference: 7, reading: 7.05 },
    ]);
    expect(fit?.slope).toBeCloseTo(0.95, 10);
    expect(fit?.offset).toBeCloseTo(0.4, 10);
  });

  it('fits three points by least squares', () => {
    const fit = fitLine([
      { reference: 4, reading: 4.1 },
      { reference: 7, reading: 7 },
      { reference: 10, reading: 10.1 },
    ]);
    expect(fit?.slope).toBeCloseTo(1, 10);
    expect(fit?.offset).toBeCloseTo(0.0667, 3);
  });

  it('takes one point as an offset with slope 1', () => {
    expect(fitLine([{ reference: 7, reading: 7.2 }])).toEqual({ slope: 1, offset: expect.closeTo(0.2, 10) });
  });

  it('cannot fit points sharing one reference, or none', () => {
    expect(
      fitLine([
        { reference: 7, reading: 7 },
        { reference: 7, reading: 7.1 },
      ]),
    ).toBeNull();
    expect(fitLine([])).toBeNull();
  });
});

describe('slopePercent and offsetText', () => {
  it('rounds the slope to a tenth of a percent', () => {
    expect(slopePercent(0.98649)).toBe(98.6);
    expect(slopePercent(0.95)).toBe(95);
    expect(slopePercent(1.1)).toBe(110);
  });

  it('signs the offset', () => {
    expect(offsetText(0.12)).toBe('+0.12');
    expect(offsetText(-0.04)).toBe('−0.04');
    expect(offsetText(0)).toBe('0');
    expect(offsetText(-0.0001)).toBe('0');
    expect(offsetText(0.123456)).toBe('+0.123');
  });
});

describe('calibrationVerdict', () => {
  const verdict = (slope: number, accepted?: boolean) => calibrationVerdict({ slope, offset: 0.02, points: 2, accepted });

  it('calls 95 to 105 % good, both ends included', () => {
    for (const slope of [0.95, 1, 1.05, 0.9496]) expect(verdict(slope).tone).toBe('good');
    expect(verdict(0.986).headline).toBe('Good: slope 98.6 %, offset +0.02');
    expect(verdict(1).advice).toBe('The probe reads true.');
  });

  it('asks for cleaning between 90 and 95 % and between 105 and 110 %, both ends included', () => {
    for (const slope of [0.949, 0.9, 1.051, 1.1]) expect(verdict(slope).tone).toBe('clean');
    expect(verdict(0.93).headline).toBe('Accepted, but clean the probe: slope 93.0 %, offset +0.02');
    expect(verdict(0.93).advice).toMatch(/95–105 %/);
  });

  it('refuses outside 90 to 110 % and says to replace a probe that stays there', () => {
    for (const slope of [0.899, 1.101, 0.5, -1]) expect(verdict(slope).tone).toBe('replace');
    expect(verdict(0.88).headline).toBe('Not accepted: slope 88.0 % is outside 90–110 %, offset +0.02');
    expect(verdict(0.88).advice).toMatch(/replace it/);
  });

  it('follows the service when it did not accept', () => {
    expect(verdict(1, false).tone).toBe('replace');
    expect(verdict(0.93, true).tone).toBe('clean');
  });

  it('checks only the offset with one point', () => {
    const one = calibrationVerdict({ slope: 1, offset: -0.15, points: 1, accepted: true });
    expect(one).toEqual({
      tone: 'offset',
      headline: 'Offset −0.15: one buffer checks the offset only',
      advice: "Use two or three buffers to check the probe's slope as well.",
    });
  });
});

describe('parsePoints', () => {
  it('reads the rows, decimal commas included, and skips empty ones', () => {
    expect(
      parsePoints([
        { reference: '4', reading: '4,1' },
        { reference: '', reading: ' ' },
        { reference: '7.00', reading: '6.95' },
      ]),
    ).toEqual({
      points: [
        { reference: 4, reading: 4.1 },
        { reference: 7, reading: 6.95 },
      ],
      errors: {},
    });
  });

  it('reports a half-filled row or one that is no number by its index', () => {
    const parsed = parsePoints([
      { reference: '4', reading: '' },
      { reference: 'seven', reading: '7' },
      { reference: '10', reading: '10' },
    ]);
    expect(parsed.points).toEqual([{ reference: 10, reading: 10 }]);
    expect(Object.keys(parsed.errors)).toEqual(['0', '1']);
  });
});

describe('calibrationStatus', () => {
  it('says never calibrated and no reminder without either', () => {
    expect(calibrationStatus({}, NOW)).toEqual({ last: 'never calibrated', due: 'no reminder set', overdue: false });
  });

  it('is due now when a reminder is set but there is no due date', () => {
    expect(calibrationStatus({ calibration_interval: 30, calibrated_at: null, calibration_due: null }, NOW)).toEqual({
      last: 'never calibrated',
      due: 'due now',
      overdue: true,
    });
  });

  it('counts days until due', () => {
    const status = calibrationStatus(
      { calibration_interval: 30, calibrated_at: iso(NOW - 12 * DAY), calibration_due: iso(NOW + 18 * DAY) },
      NOW,
    );
    expect(status.last).toBe('calibrated 12 d ago');
    expect(status.due).toMatch(/^due in 18 d \(.+\)$/);
    expect(status.overdue).toBe(false);
  });

  it('says just now under a minute', () => {
    expect(calibrationStatus({ calibrated_at: iso(NOW - 59_000) }, NOW).last).toBe('calibrated just now');
    expect(calibrationStatus({ calibrated_at: iso(NOW - 60_000) }, NOW).last).toBe('calibrated 1 min ago');
  });

  it('counts hours under a day', () => {
    const status = calibrationStatus(
      { calibration_interval: 1, calibrated_at: iso(NOW - 3 * 3_600_000), calibration_due: iso(NOW + 21 * 3_600_000 + 60_000) },
      NOW,
    );
    expect(status.last).toBe('calibrated 3 h ago');
    expect(status.due).toMatch(/^due in 21 h \(/);
  });

  it('is overdue from the due instant on', () => {
    const at = { calibration_interval: 30, calibrated_at: iso(NOW - 32 * DAY) };
    expect(calibrationStatus({ ...at, calibration_due: iso(NOW) }, NOW).overdue).toBe(true);
    expect(calibrationStatus({ ...at, calibration_due: iso(NOW - 2 * DAY) }, NOW).due).toMatch(/^overdue since .+ \(2 d\)$/);
    expect(calibrationStatus({ ...at, calibration_due: iso(NOW + 1) }, NOW).overdue).toBe(false);
  });
});

describe('bufferPresets', () => {
  it('offers the usual pH buffers and EC standards in the sensor unit', () => {
    expect(bufferPresets('ph', 'pH')).toEqual([7, 4, 10]);
    expect(bufferPresets('ec', 'mS/cm')).toEqual([1.413, 12.88]);
    expect(bufferPresets('ec', 'µS/cm')).toEqual([1413, 12880]);
    expect(bufferPresets('ec', 'uS/cm')).toEqual([1413, 12880]);
    expect(bufferPresets('temperature', 'Celsius')).toEqual([]);
  });
});

describe("the preview against the service's fit", () => {
  // The form previews the fit the service will record: the same line, the same acceptance band.
  const cases = [
    [
      { reference: 7, reading: 7.05 },
      { reference: 4, reading: 4.2 },
    ],
    [
      { reference: 7, reading: 7.05 },
      { reference: 4, reading: 4.2 },
      { reference: 10, reading: 9.85 },
    ],
    [
      { reference: 1.413, reading: 1.38 },
      { reference: 12.88, reading: 13.4 },
    ],
    [{ reference: 7, reading: 7.3 }],
    [
      { reference: 4, reading: 3.1 },
      { reference: 7, reading: 7.9 },
      { reference: 10, reading: 9 },
      { reference: 4, reading: 4 },
    ],
  ];
  it('fits every case as the service does', () => {
    for (const points of cases) {
      const service = fitCalibration(points);
      if (typeof service === 'string') throw new Error(service);
      const page = fitLine(points);
      expect(page?.slope).toBeCloseTo(service.slope, 12);
      expect(page?.offset).toBeCloseTo(service.offset, 12);
    }
  });

  it('cannot fit what the service refuses', () => {
    expect(
      fitCalibration([
        { reference: 7, reading: 7 },
        { reference: 7, reading: 7.1 },
      ]),
    ).toBe('references_equal');
    expect(
      fitLine([
        { reference: 7, reading: 7 },
        { reference: 7, reading: 7.1 },
      ]),
    ).toBeNull();
  });

  it('refuses outside the band the service accepts', () => {
    expect(ACCEPTED_SLOPE.min / 100).toBe(SERVICE_ACCEPTED.min);
    expect(ACCEPTED_SLOPE.max / 100).toBe(SERVICE_ACCEPTED.max);
  });
});

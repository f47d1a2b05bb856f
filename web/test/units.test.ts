import { describe, expect, it } from 'vitest';
import { thresholdBands } from '../src/domain/bands';
import { displayFor, formatValue } from '../src/domain/units';

const celsius = { temperature: '°C', conductivity: 'mS/cm' } as const;
const imperial = { temperature: '°F', conductivity: 'µS/cm' } as const;

describe('displayFor', () => {
  it('shows Celsius sensors in Fahrenheit when preferred', () => {
    const display = displayFor('Celsius', imperial);
    expect(display.unit).toBe('°F');
    expect(display.convert(0)).toBe(32);
    expect(display.convert(100)).toBe(212);
    expect(displayFor('°C', celsius)).toMatchObject({ unit: '°C' });
    expect(displayFor('Celsius', celsius).convert(21.5)).toBe(21.5);
  });

  it('converts stored Fahrenheit back to Celsius', () => {
    expect(displayFor('°F', celsius).convert(212)).toBeCloseTo(100);
  });

  it('shows mS/cm as µS/cm and back', () => {
    expect(displayFor('mS/cm', imperial)).toMatchObject({ unit: 'µS/cm' });
    expect(displayFor('mS/cm', imperial).convert(1.83)).toBeCloseTo(1830);
    expect(displayFor('uS/cm', celsius).convert(1830)).toBeCloseTo(1.83);
  });

  it('leaves other units alone', () => {
    const display = displayFor('pH', imperial);
    expect(display.unit).toBe('pH');
    expect(display.convert(6.2)).toBe(6.2);
  });
});

describe('formatValue', () => {
  it('keeps two decimals for small values and fewer for large ones', () => {
    expect(formatValue(6.4321)).toMatch(/^6[.,]43$/);
    expect(formatValue(123.456)).toMatch(/^123[.,]5$/);
  });
});

describe('thresholdBands', () => {
  const sensor = {
    sensor_id: 1,
    prototype_id: 0,
    sensor_type: 'temperature' as const,
    sensor_unit: 'Celsius',
    threshold_critically_low: 0,
    threshold_low: 10,
    threshold_high: 30,
    threshold_critically_high: 40,
    sensor_name: null,
    valid_min: null,
    valid_max: null,
    stale_after: null,
    stuck_after: null,
    calibration_interval: null,
    calibrated_at: null,
    calibration_due: null,
  };

  it('shades critical outside the critical thresholds and warning between them and the warning ones', () => {
    expect(thresholdBands(sensor)).toEqual([
      { severity: 'critical', from: -Infinity, to: 0 },
      { severity: 'warning', from: 0, to: 10 },
      { severity: 'warning', from: 30, to: 40 },
      { severity: 'critical', from: 40, to: Infinity },
    ]);
  });

  it('follows the display unit and drops empty zones', () => {
    const bands = thresholdBands({ ...sensor, threshold_low: 0 }, displayFor('Celsius', imperial).convert);
    expect(bands).toEqual([
      { severity: 'critical', from: -Infinity, to: 32 },
      { severity: 'warning', from: 86, to: 104 },
      { severity: 'critical', from: 104, to: Infinity },
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import type { SensorType } from '../src/api/types';
import { describeThresholds, EC_BY_CROP, presetFor, SENSOR_PRESETS } from '../src/domain/presets';
import { CONDITION_LABELS, sensorName } from '../src/domain/labels';

describe('sensor presets', () => {
  it('suggests pH 5.5–6.5 ok and 5.0/7.0 critical', () => {
    expect(presetFor('ph')).toMatchObject({
      unit: 'pH',
      thresholds: { threshold_critically_low: 5, threshold_low: 5.5, threshold_high: 6.5, threshold_critically_high: 7 },
    });
    expect(describeThresholds(presetFor('ph').thresholds, 'pH')).toBe('5.5–6.5 pH ok; critical below 5 or above 7');
  });

  it('gives EC by crop', () => {
    expect(presetFor('ec', 'fruiting').thresholds.threshold_high).toBe(3.5);
    expect(presetFor('ec').thresholds).toEqual(EC_BY_CROP[0].thresholds);
  });

  it('keeps every preset in the order the service requires', () => {
    for (const [type, preset] of Object.entries(SENSOR_PRESETS)) {
      const th = preset.thresholds;
      expect(th.threshold_critically_low <= th.threshold_low, type).toBe(true);
      expect(th.threshold_low <= th.threshold_high, type).toBe(true);
      expect(th.threshold_high <= th.threshold_critically_high, type).toBe(true);
      expect(preset.unit.length).toBeGreaterThan(0);
    }
    for (const crop of EC_BY_CROP) expect(crop.thresholds.threshold_low).toBeLessThan(crop.thresholds.threshold_high);
  });
});

describe('names', () => {
  const base = { sensor_id: 4, sensor_type: 'ph' as SensorType };
  it('shows the sensor name when the service gives one, else "pH #4"', () => {
    expect(sensorName(base as never)).toBe('pH #4');
    expect(sensorName({ ...base, sensor_name: 'Reservoir pH' } as never)).toBe('Reservoir pH');
    expect(sensorName({ ...base, sensor_name: null } as never)).toBe('pH #4');
  });
  it('says "below or above" for low_or_high, which is what the rule does', () => {
    expect(CONDITION_LABELS.low_or_high).toBe('value below or above');
  });
});

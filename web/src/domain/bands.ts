import type { Sensor } from '../api/types';

export interface ThresholdBand {
  severity: 'warning' | 'critical';
  from: number;
  to: number;
}

/**
 * The zones a chart shades for a sensor: critical below critically_low and above
 * critically_high, warning between each critical threshold and its warning threshold. `convert`
 * maps stored values to the displayed unit (conversions are increasing, so the order holds).
 */
export function thresholdBands(sensor: Sensor, convert: (value: number) => number = (v) => v): ThresholdBand[] {
  const critLow = convert(sensor.threshold_critically_low);
  const low = convert(sensor.threshold_low);
  const high = convert(sensor.threshold_high);
  const critHigh = convert(sensor.threshold_critically_high);
  const bands: ThresholdBand[] = [
    { severity: 'critical', from: -Infinity, to: critLow },
    { severity: 'warning', from: critLow, to: low },
    { severity: 'warning', from: high, to: critHigh },
    { severity: 'critical', from: critHigh, to: Infinity },
  ];
  return bands.filter((band) => band.to > band.from);
}

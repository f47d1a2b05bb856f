import type { SensorBase } from './sensor.js';

export type Thresholds = Pick<SensorBase, 'threshold_critically_low' | 'threshold_low' | 'threshold_high' | 'threshold_critically_high'>;

/** The thresholds must not decrease: critically_low ≤ low ≤ high ≤ critically_high. */
export function thresholdsInOrder(t: Thresholds): boolean {
  return (
    t.threshold_critically_low <= t.threshold_low && t.threshold_low <= t.threshold_high && t.threshold_high <= t.threshold_critically_high
  );
}

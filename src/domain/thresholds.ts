export interface Thresholds {
  threshold_critically_low: number;
  threshold_low: number;
  threshold_high: number;
  threshold_critically_high: number;
}

/** The thresholds must not decrease: critically_low ≤ low ≤ high ≤ critically_high. */
export function thresholdsInOrder(t: Thresholds): boolean {
  return (
    t.threshold_critically_low <= t.threshold_low &&
    t.threshold_low <= t.threshold_high &&
    t.threshold_high <= t.threshold_critically_high
  );
}

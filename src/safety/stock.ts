/**
 * Volumes and the bottle (docs/api.md §15). A dose's volume is its run time × the pump's flow,
 * worked out when the dose is recorded; a pump without a flow doses an unknown volume (null),
 * which takes nothing from the stock. Each dose takes its volume from the stock, never below 0;
 * the stock is *low* at or under `stock_low_ml`, and the decision answers `empty` at 0 (rules.ts).
 *
 * Volumes and stocks are kept to the microlitre (6 decimals of a millilitre): a duration × a flow
 * such as 3 × 0.1 is 0.30000000000000004 in binary, and a bottle would otherwise hold
 * 99.69999999999999 ml after one dose.
 */

const MICROLITRES_PER_ML = 1e6;

/**
 * The largest dose an actuator's settings may make (activation_duration × flow_ml_per_s): a
 * thousand cubic metres, far beyond any pump, and far below where sums of doses and microlitre
 * rounding stop being finite numbers.
 */
export const MAX_DOSE_ML = 1e9;

/** Millilitres, to the microlitre. */
export const toMicrolitre = (ml: number): number => Math.round(ml * MICROLITRES_PER_ML) / MICROLITRES_PER_ML;

/** The volume of a dose of `duration` seconds at `flowMlPerS`, or null without a flow. */
export function doseVolume(duration: number, flowMlPerS: number | null): number | null {
  if (flowMlPerS === null) return null;
  return toMicrolitre(duration * flowMlPerS);
}

/**
 * What a bottle holds after a dose: its stock less the dose's volume, never below 0. A stock not
 * tracked (null) stays so; a dose of unknown volume (null) takes nothing. A NaN stock or volume
 * empties the bottle: unknown, the pump waits (docs/api.md §14).
 */
export function stockAfterDose(stockMl: number | null, volumeMl: number | null): number | null {
  if (stockMl === null) return null;
  if (volumeMl === null) return stockMl;
  const left = toMicrolitre(stockMl - volumeMl);
  return left > 0 ? left : 0;
}

/** Whether the stock is at or under its low mark; never while either is null (not tracked, no warning). */
export function isStockLow(stockMl: number | null, stockLowMl: number | null): boolean {
  if (stockMl === null || stockLowMl === null) return false;
  return !(stockMl > stockLowMl);
}

/**
 * The size of a proportional dose (`dose_mode: "proportional"`): the run that should bring the
 * reading `dose_fraction` of the way to the set point, given the pump's gain (reading change per
 * second of run), clamped to `min_duration` .. `max_duration`, and never more than what closes
 * `dose_fraction` of the gap — even when that is under `min_duration`, so that a small gap near
 * the band's edge never overshoots the set point.
 *
 * Without a gain it can trust (none learned yet and no `initial_gain`, or a learned gain of zero
 * or less) the dose is `min_duration`: not knowing what a pump does is a reason for the smallest
 * dose, never a bigger one.
 */

export const DEFAULT_DOSE_FRACTION = 0.8;
export const DEFAULT_MIN_DURATION = 1;

export interface SizingSettings {
  dose_fraction: number | null;
  min_duration: number | null;
  /** null: the actuator's activation_duration. */
  max_duration: number | null;
  activation_duration: number;
}

/** Seconds with millisecond precision: a pump loop sleeps no finer than that. */
// (The tiny epsilon keeps 15.9999999 from arithmetic at 16: it is not a millisecond.)
const toMs = (seconds: number) => Math.floor(seconds * 1000 + 1e-6) / 1000;

/** The bounds a dose is clamped to, defaults filled in; a minimum over the maximum is brought down to it. */
export function durationBounds(s: SizingSettings): { min: number; max: number } {
  const max = s.max_duration ?? s.activation_duration;
  const min = s.min_duration ?? DEFAULT_MIN_DURATION;
  return { min: Math.min(min, max), max };
}

/**
 * Seconds to run for a gap (≥ 0, in the corrective direction) with a gain (null: none trusted).
 * A gap of zero or less, or one that cannot be read, is no dose (0).
 */
export function sizeDose(gap: number, gain: number | null, s: SizingSettings): number {
  if (!(gap > 0) || !Number.isFinite(gap)) return 0;
  const { min, max } = durationBounds(s);
  if (!(max > 0)) return 0;
  if (gain === null || !(gain > 0) || !Number.isFinite(gain)) return toMs(min);
  const fraction = s.dose_fraction ?? DEFAULT_DOSE_FRACTION;
  const closing = (fraction * gap) / gain;
  // min_duration would only ever lengthen a dose past `closing`, which the cap forbids.
  return toMs(Math.min(max, closing));
}

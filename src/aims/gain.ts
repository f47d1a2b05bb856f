/**
 * The learned gain of a pump: how far one second of its run moves the reading, in the direction it
 * corrects. Learned from the pump's own answered doses (each: the move it made over its run
 * seconds), as the median of the most recent ones, so that one odd dose (a top-up during mixing)
 * does not steer the next.
 *
 * A gain that comes out zero or negative says the pump does not move the reading (an empty or wrong
 * bottle, a probe that does not see the tank): that is never a reason for a bigger dose. It is
 * reported (`gain`) but sizing treats it as unknown and falls back to the smallest dose.
 */

/** At least this many answered doses before the learned gain is used. */
export const MIN_ANSWERED_FOR_GAIN = 3;
/** The median is taken over at most this many of the newest answered doses. */
export const GAIN_WINDOW = 5;

export interface AnsweredDose {
  /** When the dose was taken (newest decide). */
  activated_at: number;
  /** Seconds the pump ran. */
  duration: number;
  /** How far the reading moved in the corrective direction after it (negative: the wrong way). */
  move: number;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * The median move per second of run of the newest `GAIN_WINDOW` answered doses, or null with fewer
 * than `MIN_ANSWERED_FOR_GAIN` usable ones (a dose of no run time or an unreadable move is skipped).
 */
export function learnedGain(doses: readonly AnsweredDose[]): number | null {
  const usable = doses
    .filter((d) => d.duration > 0 && Number.isFinite(d.duration) && Number.isFinite(d.move))
    .sort((a, b) => b.activated_at - a.activated_at)
    .slice(0, GAIN_WINDOW);
  if (usable.length < MIN_ANSWERED_FOR_GAIN) return null;
  return median(usable.map((d) => d.move / d.duration));
}

export type GainSource = 'learned' | 'initial' | 'none';

export interface Gain {
  /** The gain sizing uses; null: none it can trust (the smallest dose). */
  value: number | null;
  /** The gain as learned or set, even when sizing cannot use it (zero or negative). */
  reported: number | null;
  source: GainSource;
}

/**
 * The gain a dose is sized with: the learned one once there is one; before that `initial_gain` when
 * set. A learned gain of zero or less is not replaced by `initial_gain` (the pump has shown it does
 * not work as assumed): it is reported, and sizing gets none.
 */
export function effectiveGain(learned: number | null, initialGain: number | null): Gain {
  if (learned !== null) return { value: learned > 0 && Number.isFinite(learned) ? learned : null, reported: learned, source: 'learned' };
  if (initialGain !== null && initialGain > 0 && Number.isFinite(initialGain)) {
    return { value: initialGain, reported: initialGain, source: 'initial' };
  }
  return { value: null, reported: null, source: 'none' };
}

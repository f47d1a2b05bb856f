/**
 * Unusual consumption: a drifting probe makes a pump dose ever more while every dose looks
 * answered. Each actuator learns its usual dosing from its own doses: for each of the past
 * `usual_days` whole days (24 h blocks ending now) that had doses, the amount dosed that day scaled
 * to one `usual_window`; the usual amount is their median, once at least MIN_USUAL_DAYS days had
 * doses. When the amount of the last `usual_window` exceeds `unusual_factor` times it, the pump is
 * held. Doses before `since` (the last unlock of such a hold) are not learned from.
 */

export const DEFAULT_USUAL_DAYS = 7;
export const DEFAULT_USUAL_WINDOW = 6 * 3600;
export const DEFAULT_UNUSUAL_FACTOR = 2;
/** Days with doses needed before the usual amount counts as learned. */
export const MIN_USUAL_DAYS = 3;

const DAY_MS = 24 * 3600 * 1000;

export interface DoseAmount {
  activated_at: number;
  /** Millilitres with a flow, else seconds of run. */
  amount: number;
}

export interface UsualSettings {
  usual_days: number;
  /** Seconds. */
  usual_window: number;
  /** null: off. */
  unusual_factor: number | null;
}

export interface Usage {
  /** The usual amount per usual_window; null until learned. */
  usual: number | null;
  /** The amount dosed in the last usual_window. */
  recent: number;
  /** recent ÷ usual; null until learned (or when usual is 0). */
  ratio: number | null;
  /** Days with doses the usual amount was learned from. */
  days: number;
}

/** The amount of the doses in [from, to). */
function amountIn(doses: readonly DoseAmount[], from: number, to: number): number {
  let sum = 0;
  for (const dose of doses) if (dose.activated_at >= from && dose.activated_at < to && Number.isFinite(dose.amount)) sum += dose.amount;
  return sum;
}

/** What the doses say at `now` (they may be in any order; those after now are ignored). */
export function usage(doses: readonly DoseAmount[], now: number, settings: UsualSettings, since: number | null): Usage {
  const windowMs = settings.usual_window * 1000;
  const recent = amountIn(doses, now - windowMs + 1, now + 1);
  const perDay: number[] = [];
  for (let k = 1; k <= settings.usual_days; k++) {
    const start = now - k * DAY_MS + 1;
    if (since !== null && start < since) break;
    const day = amountIn(doses, start, start + DAY_MS);
    if (day > 0) perDay.push((day * windowMs) / DAY_MS);
  }
  if (perDay.length < MIN_USUAL_DAYS) return { usual: null, recent, ratio: null, days: perDay.length };
  perDay.sort((a, b) => a - b);
  const mid = perDay.length >> 1;
  const usual = perDay.length % 2 === 1 ? perDay[mid] : (perDay[mid - 1] + perDay[mid]) / 2;
  return { usual, recent, ratio: usual > 0 ? recent / usual : null, days: perDay.length };
}

/** Whether the usage holds the pump: more than factor × usual in the last window. Off with a null factor. */
export function isUnusual(use: Usage, factor: number | null): boolean {
  if (factor === null || use.ratio === null) return false;
  return use.ratio > factor;
}

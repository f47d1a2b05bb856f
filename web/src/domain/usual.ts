/**
 * What a pump card says about its usual dosing and the effect of its doses (docs/api.md §14):
 * the usual amount per window against the recent one, and the move a dose is expected to make
 * against the move last seen. Pure functions of the service's data.
 */
import type { ActivationRecord, Actuator } from '../api/types';

/** The usual dosing as `GET /actuators/{id}/doses` answers it in its headers. */
export interface UsualDosing {
  /** The usual amount per window; null until learned. */
  amount: number | null;
  unit: 'ml' | 's';
  /** The window the amounts are compared over, in seconds. */
  window: number;
  /** The days with doses it was learned from. */
  days: number;
  /** The amount of the last window. */
  recent: number;
  /** Recent ÷ usual; null when unknown. */
  ratio: number | null;
}

const number = (text: string | null): number | null => {
  if (text === null || text === '' || text === 'unknown') return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
};

/** The usual dosing from the response's headers; null when the service does not send them. */
export function usualFromHeaders(headers: Pick<Headers, 'get'>): UsualDosing | null {
  const unit = headers.get('usual-unit');
  const window = number(headers.get('usual-window'));
  if ((unit !== 'ml' && unit !== 's') || window === null || window <= 0) return null;
  return {
    amount: number(headers.get('usual-amount')),
    unit,
    window,
    days: number(headers.get('usual-days')) ?? 0,
    recent: number(headers.get('usual-recent')) ?? 0,
    ratio: number(headers.get('usual-ratio')),
  };
}

/** "6 h", "90 min", "45 s": a window as a grower says it. */
export function windowText(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

/** At most `digits` decimals, without trailing zeros: 12, 1.4, 0.25. */
const short = (value: number, digits: number) => String(Number(value.toFixed(digits)));

export type UsualTone = 'ok' | 'warning' | 'critical';

/**
 * "Usual: 12 ml per 6 h; now 1.4× (holds at 2×)", or null until the usual amount is learned.
 * At the factor the next dose holds the pump (warning); above it, it is held (critical).
 */
export function usualText(
  usual: UsualDosing | null | undefined,
  factor: Actuator['unusual_factor'] | undefined,
): { text: string; tone: UsualTone } | null {
  if (!usual || usual.amount === null) return null;
  const amount = usual.unit === 'ml' ? `${short(usual.amount, 1)} ml` : `${short(usual.amount, 1)} s of run`;
  let text = `Usual: ${amount} per ${windowText(usual.window)}`;
  if (usual.ratio === null) return { text, tone: 'ok' };
  text += `; now ${short(usual.ratio, 1)}×`;
  if (factor === null || factor === undefined) return { text, tone: 'ok' };
  text += ` (holds at ${short(factor, 2)}×)`;
  const tone = usual.ratio > factor ? 'critical' : usual.ratio === factor ? 'warning' : 'ok';
  return { text, tone };
}

/** Answered doses a pump needs before its effect counts as learned (as the service judges). */
export const LEARNED_AFTER = 3;

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

type JudgedDose = Pick<ActivationRecord, 'answered' | 'response' | 'duration'>;

/**
 * "Expected per dose: 0.10 pH; last seen 0.01": the median move per second of run of the answered
 * doses × the pump's run, against the newest judged dose's move. Null until 3 answered doses
 * with a move are known. `doses` newest first.
 */
export function expectedEffectText(
  doses: readonly JudgedDose[],
  runSeconds: number,
  reading: string,
): { text: string; expected: number; last: number | null } | null {
  const rates = doses
    .filter((dose) => dose.answered === true && dose.response !== null && dose.duration > 0)
    .map((dose) => (dose.response as number) / dose.duration);
  if (rates.length < LEARNED_AFTER) return null;
  const expected = median(rates) * runSeconds;
  const lastDose = doses.find((dose) => dose.response !== null);
  const last = lastDose ? (lastDose.response as number) : null;
  const seen = last === null ? '' : `; last seen ${last.toFixed(2)}`;
  return { text: `Expected per dose: ${expected.toFixed(2)} ${reading}${seen}`, expected, last };
}

/**
 * What an actuator card says about volumes and the bottle (docs/api.md §15): millilitres dosed
 * today and over seven days, the bottle's level against its low mark, the refill's suggested
 * amount, and the settings fields of volumes and stock. Pure functions of the service's data.
 */
import type { DoseBucket, VolumeFields } from '../api/records';
import { optionalText, parseOptionalNumbers } from './numbers';

const DAY_MS = 86_400_000;
/** "7 days": today and the six days before it, by the browser's calendar. */
export const WEEK_DAYS = 7;

/** Local midnight at the start of the day holding `ms`, `daysBefore` days earlier. */
export function localDayStart(ms: number, daysBefore = 0): number {
  const date = new Date(ms);
  date.setHours(0, 0, 0, 0);
  date.setDate(date.getDate() - daysBefore);
  return date.getTime();
}

/** The window the card reads hourly dose buckets for: from local midnight six days ago until now. */
export function volumeWindow(nowMs: number): { startMs: number; todayMs: number } {
  return { startMs: localDayStart(nowMs, WEEK_DAYS - 1), todayMs: localDayStart(nowMs) };
}

export interface VolumeTotals {
  todayMl: number;
  weekMl: number;
  todayDoses: number;
  weekDoses: number;
  /** Some dose in the window had a volume: without a flow the service counts doses, not millilitres. */
  measured: boolean;
}

/**
 * Hourly buckets summed into today and the seven days. A bucket belongs to the day its start
 * falls in (hourly buckets start on UTC hours; where the local day starts on a half hour, the
 * hour holding midnight counts for the day it starts in).
 */
export function volumeTotals(
  buckets: readonly DoseBucket[],
  todayMs: number,
  weekStartMs = todayMs - (WEEK_DAYS - 1) * DAY_MS,
): VolumeTotals {
  const totals: VolumeTotals = { todayMl: 0, weekMl: 0, todayDoses: 0, weekDoses: 0, measured: false };
  for (const bucket of buckets) {
    const start = Date.parse(bucket.start);
    if (!(start >= weekStartMs)) continue;
    const ml = bucket.volume_ml ?? 0;
    if (bucket.volume_ml !== null) totals.measured = true;
    totals.weekMl += ml;
    totals.weekDoses += bucket.doses;
    if (start >= todayMs) {
      totals.todayMl += ml;
      totals.todayDoses += bucket.doses;
    }
  }
  return totals;
}

/** Millilitres as a grower reads them, in the unit of the bottle's settings: "0.5 ml", "12.5 ml", "640 ml", "1250 ml". */
export function mlText(ml: number): string {
  const value = Math.max(0, ml);
  return `${trim(value, value < 100 ? 1 : 0)} ml`;
}

const trim = (n: number, decimals: number) => String(Number(n.toFixed(decimals)));

const doses = (n: number) => `${n} ${n === 1 ? 'dose' : 'doses'}`;

/** "12.5 ml today · 80 ml in 7 days", or the dose counts when the pump's flow is not set. */
export function volumeText(totals: VolumeTotals, flow: number | null | undefined): { today: string; week: string; hint?: string } {
  if (totals.measured || (flow !== null && flow !== undefined)) {
    return { today: `${mlText(totals.todayMl)} today`, week: `${mlText(totals.weekMl)} in ${WEEK_DAYS} days` };
  }
  return {
    today: `${doses(totals.todayDoses)} today`,
    week: `${doses(totals.weekDoses)} in ${WEEK_DAYS} days`,
    hint: "Set the pump's flow (ml/s) in Settings to count millilitres.",
  };
}

export type BottleState = 'ok' | 'low' | 'empty';

export interface BottleLevel {
  stockMl: number;
  lowMl: number | null;
  /** What a full bottle holds, as far as the page knows (the last refill); null when no refill was recorded. */
  capacityMl: number | null;
  state: BottleState;
  /** "640 of 1000 ml", "640 ml left". */
  text: string;
  /** The `stock_low` warning or the `empty` block in words; null while the bottle is fine. */
  warning: string | null;
}

/**
 * The bottle on an actuator card; null when its stock is not tracked. At 0 the decision answers
 * `empty`; at or under `stock_low_ml` the service raises `stock_low` (§15).
 */
export function bottleLevel(stock: Pick<VolumeFields, 'stock_ml' | 'stock_low_ml'>, lastRefillMl: number | null): BottleLevel | null {
  const stockMl = stock.stock_ml;
  if (stockMl === null || stockMl === undefined) return null;
  const lowMl = stock.stock_low_ml ?? null;
  // A bottle topped up past its last refill through Settings: what it holds now is the most known.
  const capacityMl = lastRefillMl === null ? null : Math.max(lastRefillMl, stockMl);
  const state: BottleState = !(stockMl > 0) ? 'empty' : lowMl !== null && stockMl <= lowMl ? 'low' : 'ok';
  const text = capacityMl !== null && capacityMl > 0 ? `${mlText(stockMl)} of ${mlText(capacityMl)}` : `${mlText(stockMl)} left`;
  const warning =
    state === 'empty'
      ? 'Empty: the pump will not run until the bottle is refilled.'
      : state === 'low'
        ? `Running low: ${mlText(stockMl)} left, at or under the ${mlText(lowMl ?? 0)} mark. Refill soon.`
        : null;
  return { stockMl, lowMl, capacityMl, state, text, warning };
}

/** The amount the refill dialog suggests: the last refill's, else what the bottle held at most as far as known. */
export function refillSuggestion(lastRefillMl: number | null, stockMl: number | null | undefined): string {
  if (lastRefillMl !== null && lastRefillMl > 0) return String(lastRefillMl);
  if (stockMl !== null && stockMl !== undefined && stockMl > 0) return String(stockMl);
  return '';
}

/** What the bottle field says on an existing pump, where only a refill sets it. */
export const STOCK_SET_BY_REFILL = 'Set by Refill on the pump’s card; each dose takes its volume';

/** The §15 fields of an actuator's settings form. */
export const VOLUME_FIELDS = [
  { name: 'flow_ml_per_s', label: 'Flow (ml/s)', hint: 'Run the pump 60 s into a measuring cup, divide by 60; empty: volumes not counted' },
  { name: 'max_ml_per_day', label: 'Max ml per day', hint: 'In any 24 h; empty: no limit (needs the flow)' },
  { name: 'stock_ml', label: 'Bottle now (ml)', hint: 'What the bottle holds; empty: not tracked. Refill from the overview' },
  { name: 'stock_low_ml', label: 'Low mark (ml)', hint: 'Warn at or under this; empty: no warning' },
] as const;
export type VolumeName = (typeof VOLUME_FIELDS)[number]['name'];
export type VolumeTexts = Record<VolumeName, string>;

export function volumeTexts(actuator: Partial<VolumeFields> | undefined): VolumeTexts {
  return {
    flow_ml_per_s: optionalText(actuator?.flow_ml_per_s),
    max_ml_per_day: optionalText(actuator?.max_ml_per_day),
    stock_ml: optionalText(actuator?.stock_ml),
    stock_low_ml: optionalText(actuator?.stock_low_ml),
  };
}

/**
 * The volume fields to send. `stock_ml` only for a new actuator: the service ignores it in a
 * patch (every dose lowers the stock while the form is open, and sending back the amount the form
 * was loaded with would undo those doses); an existing pump's bottle is set by *Refill*.
 */
export function volumeChanges(
  texts: VolumeTexts,
  original: VolumeTexts | undefined,
): { values: Partial<Record<VolumeName, number | null>>; errors: Partial<Record<VolumeName, string>> } {
  const parsed = parseOptionalNumbers(texts);
  const values: Partial<Record<VolumeName, number | null>> = { ...parsed.values };
  if (original) delete values.stock_ml;
  return { values, errors: parsed.errors };
}

/**
 * The form's text after the service answered a new actuator (after a save, or a reload): the
 * stock follows the service's while the grower has left the field as it was last given, since
 * doses and refills change it; a stock the grower is editing stays theirs.
 */
export function followStock(texts: VolumeTexts, given: VolumeTexts, fresh: VolumeTexts): VolumeTexts {
  if (texts.stock_ml.trim() !== given.stock_ml.trim() || texts.stock_ml === fresh.stock_ml) return texts;
  return { ...texts, stock_ml: fresh.stock_ml };
}

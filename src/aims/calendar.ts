/**
 * A recipe's calendar: which phase a tank is in, and whether it is day or night, at an instant.
 *
 * Day 1 of a recipe is its start date (a calendar date in the service's time zone); phases follow
 * one another by whole calendar days, so a change falls at local midnight whatever the clocks did
 * (summer time makes that day 23 or 25 hours long). After the last phase ends the last phase is
 * held. A start date in the future answers "not started" until its midnight.
 *
 * Night is the time between light-off and light-on of the recipe's light (`on` for `hours`, which
 * may cross midnight); a phase without night targets uses its day targets at night too, and a
 * recipe without a light is always day.
 */
import { addDays, atClock, clockMinutes, daysBetween, instantOf, localTime } from './zone.js';

export interface Targets {
  [sensorType: string]: { setpoint: number; band: number };
}

export interface Phase {
  name: string;
  days: number;
  day: Targets;
  night?: Targets | null;
}

export interface Light {
  on: string;
  hours: number;
}

export interface RecipePlan {
  phases: readonly Phase[];
  light?: Light | null;
}

export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

export interface RecipeNow {
  /** false before the start date. */
  started: boolean;
  /** Index into phases (0 before the start: the first phase is what comes). */
  phaseIndex: number;
  phase: Phase;
  /** Day of the recipe, 1 on the start date (0 or less before it). */
  day: number;
  /** Day within the phase, 1 on its first day. */
  dayOfPhase: number;
  /** Whether the phase's targets now are its night ones (only with a light and night targets). */
  night: boolean;
  /** true when day number is past the last phase (the last phase is held). */
  held: boolean;
  targets: Targets;
  /** The next instant at which the phase or the day/night targets change; null: never. */
  nextChange: { at: number; phaseIndex: number; night: boolean } | null;
}

/** "YYYY-MM-DD" as a calendar date, else null. */
export function parseDate(text: string): CalendarDate | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null;
  return { year, month, day };
}

/** The phase index for recipe day `day` (1-based; the last phase past the end; the first before day 1). */
export function phaseOfDay(phases: readonly Phase[], day: number): number {
  let end = 0;
  for (let i = 0; i < phases.length; i += 1) {
    end += phases[i]!.days;
    if (day <= end) return i;
  }
  return phases.length - 1;
}

/** The recipe day (1-based) on which phase `index` begins. */
export function phaseStartDay(phases: readonly Phase[], index: number): number {
  let day = 1;
  for (let i = 0; i < index; i += 1) day += phases[i]!.days;
  return day;
}

/**
 * Whether `at` is outside the light's on-window, and when that next changes. The window opens at
 * `on` local time each day and lasts `hours` (elapsed hours; 24 or more: always on).
 */
export function lightAt(light: Light, at: number, zone: string): { lit: boolean; changesAt: number | null } {
  const on = clockMinutes(light.on);
  if (on === null || !(light.hours > 0)) return { lit: false, changesAt: null };
  if (light.hours >= 24) return { lit: true, changesAt: null };
  const length = light.hours * 3600_000;
  for (const days of [-1, 0]) {
    const start = atClock(at, days, on, zone);
    if (at >= start && at < start + length) return { lit: true, changesAt: start + length };
  }
  let next = atClock(at, 0, on, zone);
  if (!(next > at)) next = atClock(at, 1, on, zone);
  return { lit: false, changesAt: next };
}

/** Where the recipe started on `start` stands at instant `at`, with times in `zone`. */
export function recipeAt(plan: RecipePlan, start: CalendarDate, at: number, zone: string): RecipeNow {
  const phases = plan.phases;
  const today = localTime(at, zone);
  const day = daysBetween(start, today) + 1;
  const started = day >= 1;
  const phaseIndex = started ? phaseOfDay(phases, day) : 0;
  const phase = phases[phaseIndex]!;
  const total = phaseStartDay(phases, phases.length) - 1;
  const held = day > total;
  const dayOfPhase = day - phaseStartDay(phases, phaseIndex) + 1;

  // The next phase change: local midnight of the day the next phase begins.
  let phaseChange: { at: number; phaseIndex: number } | null = null;
  if (!started) {
    phaseChange = { at: instantOf(start.year, start.month, start.day, 0, 0, zone), phaseIndex: 0 };
  } else if (phaseIndex < phases.length - 1) {
    const d = addDays(start.year, start.month, start.day, phaseStartDay(phases, phaseIndex + 1) - 1);
    phaseChange = { at: instantOf(d.year, d.month, d.day, 0, 0, zone), phaseIndex: phaseIndex + 1 };
  }

  const light = plan.light ?? null;
  const lighting = light ? lightAt(light, at, zone) : { lit: true, changesAt: null };
  const usesNight = (p: Phase) => light !== null && p.night !== undefined && p.night !== null;
  const night = started && usesNight(phase) && !lighting.lit;
  const targets = night ? phase.night! : phase.day;

  let nextChange: RecipeNow['nextChange'] = null;
  if (phaseChange) nextChange = { ...phaseChange, night: false };
  if (started && usesNight(phase) && lighting.changesAt !== null && (nextChange === null || lighting.changesAt < nextChange.at)) {
    nextChange = { at: lighting.changesAt, phaseIndex, night: lighting.lit };
  }
  if (nextChange && nextChange.phaseIndex !== phaseIndex && light) {
    nextChange.night = usesNight(phases[nextChange.phaseIndex]!) && !lightAt(light, nextChange.at, zone).lit;
  }
  return { started, phaseIndex, phase, day, dayOfPhase, night, held, targets, nextChange };
}

/**
 * The phase to apply now, given the one last applied (null: none yet): the current phase once,
 * however many changes were missed while the service was down; null when nothing is to be done.
 */
export function phaseToApply(lastApplied: number | null, current: RecipeNow): number | null {
  if (!current.started) return null;
  return lastApplied === current.phaseIndex ? null : current.phaseIndex;
}

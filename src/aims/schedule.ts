/**
 * Timed outputs (`activation_condition: "schedule"`): lights on a daily window, irrigation in
 * cycles. The decision answers `activate: true` with `duration` = the rest of the current
 * on-window, so a controller that missed a poll or restarted re-asserts it at its next poll.
 * Times are wall-clock times in the service's zone.
 */
import { lightAt, type Light } from './calendar.js';
import { atClock, clockMinutes } from './zone.js';

export interface DailySchedule {
  on: string;
  hours: number;
}

export interface CycleSchedule {
  every: number;
  for: number;
  /** Cycles only between these local times (may cross midnight); absent: all day. */
  between?: [string, string] | null;
}

export type Schedule = DailySchedule | CycleSchedule | { from_recipe: true };

export interface ScheduleAnswer {
  on: boolean;
  /** Seconds left of the current on-window (0 when off). */
  remaining: number;
  /** When the answer next changes by time alone; null: never. */
  changesAt: number | null;
}

const OFF_FOREVER: ScheduleAnswer = { on: false, remaining: 0, changesAt: null };

function answer(on: boolean, at: number, changesAt: number | null): ScheduleAnswer {
  // Always on: a day at a time, re-asserted at every poll.
  const remaining = on ? (changesAt === null ? 86_400 : Math.floor(changesAt - at) / 1000) : 0;
  return { on, remaining, changesAt };
}

/** A daily window: on at `on` for `hours`. */
export function dailyAt(s: DailySchedule | Light, at: number, zone: string): ScheduleAnswer {
  const lit = lightAt(s, at, zone);
  return answer(lit.lit, at, lit.changesAt);
}

/** The `between` window holding `at`, or the next one: [start, end) instants. No `between`: the local day. */
function cycleWindow(s: CycleSchedule, at: number, zone: string): { start: number; end: number } | null {
  const from = s.between ? clockMinutes(s.between[0]) : 0;
  const to = s.between ? clockMinutes(s.between[1]) : 0;
  if (from === null || to === null) return null;
  const span = (to - from + 1440) % 1440 || 1440;
  for (const days of [-1, 0, 1]) {
    const start = atClock(at, days, from, zone);
    // The end is read on the clock, so a window crossing a clock change still ends at its time.
    const end = atClock(at, days + (from + span >= 1440 ? 1 : 0), (from + span) % 1440, zone);
    if (at < end) return { start, end };
  }
  return null;
}

/** Irrigation cycles: on for `for` seconds every `every` seconds from the start of each window. */
export function cycleAt(s: CycleSchedule, at: number, zone: string): ScheduleAnswer {
  if (!(s.every > 0) || !(s.for > 0)) return OFF_FOREVER;
  if (s.for >= s.every && !s.between) return answer(true, at, null);
  const window = cycleWindow(s, at, zone);
  if (window === null) return OFF_FOREVER;
  if (at < window.start) return answer(false, at, window.start);
  const cycle = s.every * 1000;
  const onFor = Math.min(s.for, s.every) * 1000;
  const cycleStart = window.start + Math.floor((at - window.start) / cycle) * cycle;
  if (at < cycleStart + onFor) return answer(true, at, Math.min(cycleStart + onFor, window.end));
  const next = cycleStart + cycle;
  return answer(false, at, next < window.end ? next : (cycleWindow(s, window.end, zone)?.start ?? null));
}

/** A schedule as stored: one kind's fields set (checked when it was written). */
export interface StoredSchedule {
  on?: string;
  hours?: number;
  from_recipe?: true;
  every?: number;
  for?: number;
  between?: [string, string];
}

/**
 * Where a schedule stands at `at`. `recipeLight` is the light of the recipe its tank follows (for
 * `from_recipe`). A schedule that is not whole stays off.
 */
export function scheduleAt(s: Schedule | StoredSchedule, at: number, zone: string, recipeLight: Light | null = null): ScheduleAnswer {
  if ('from_recipe' in s && s.from_recipe === true) return recipeLight ? dailyAt(recipeLight, at, zone) : OFF_FOREVER;
  if ('every' in s && typeof s.every === 'number') return typeof s.for === 'number' ? cycleAt(s as CycleSchedule, at, zone) : OFF_FOREVER;
  if ('on' in s && typeof s.on === 'string' && typeof s.hours === 'number') return dailyAt({ on: s.on, hours: s.hours }, at, zone);
  return OFF_FOREVER;
}

/**
 * What an actuator card says about dosing (docs/api.md §14): the decision's reason in words,
 * whether the pump ever ran, how long until it may dose, its value against the threshold, its
 * doses against its limits, the pause. Pure functions of the service's data and the time.
 */
import type { ActivationCondition, ActivationRecord, Actuator, ActuatorState } from '../api/types';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** A decision as the page has it: `reason` arrives with newer services, `status` always. */
export type Decision = Pick<ActuatorState, 'activate' | 'status'> & { reason?: string };

export type DecisionTone = 'active' | 'ok' | 'paused' | 'blocked' | 'unknown';

export interface DecisionWords {
  /** What a grower reads first: whether the pump runs, and why not. */
  text: string;
  /** The service's own sentence, where it names what the words cannot (which sensor, which limit). */
  detail?: string;
  tone: DecisionTone;
}

/** Each reason code of §14 in words; `detail: true` where the service's status adds the specifics. */
const REASON_WORDS: Record<string, { text: string; detail?: boolean; tone: DecisionTone }> = {
  disabled: { text: 'Off: the actuator is disabled', tone: 'unknown' },
  paused: { text: 'Paused: dosing on this prototype is paused', tone: 'paused' },
  // The card shows the lockout itself (since when, why): no detail here.
  locked_out: { text: 'Locked out: its doses did not move the reading', tone: 'blocked' },
  no_measurement: { text: 'Waiting: its sensor has no reading yet', tone: 'unknown' },
  restarted: { text: 'Waiting for a fresh reading since the service restarted', tone: 'unknown' },
  stale: { text: 'Waiting: the newest reading is too old to act on', tone: 'unknown' },
  invalid: { text: "Blocked: the reading is outside the sensor's valid range", detail: true, tone: 'blocked' },
  stuck: { text: 'Blocked: the sensor looks stuck on one value', detail: true, tone: 'blocked' },
  interlock: { text: 'Blocked by an interlock', detail: true, tone: 'blocked' },
  empty: { text: 'Blocked: the bottle is empty, refill it', tone: 'blocked' },
  waiting: { text: 'Waiting: the period since the last run has not passed', tone: 'ok' },
  zero_duration: { text: 'Idle: its run lasts 0 s', tone: 'unknown' },
  limit: { text: 'Held by a dose limit', detail: true, tone: 'blocked' },
  unusual: { text: "Held: it doses far more than usual; check the probe's calibration", detail: true, tone: 'blocked' },
  sequenced: { text: 'Waiting its turn: another part of the tank doses first', detail: true, tone: 'ok' },
  claimed: { text: 'Dose under way: a controller was told to run it', tone: 'active' },
  store_unavailable: { text: 'Held: the dose could not be recorded, so the pump waits', tone: 'blocked' },
};

/**
 * The decision in words. With `reason` the words are the page's own; without it (an older
 * service) they come from `status` as before: "OK" says only that the condition was evaluated.
 */
export function decisionWords(decision: Decision): DecisionWords {
  const { reason, status, activate } = decision;
  if (reason === 'ok' || (reason === undefined && status === 'OK')) {
    return activate ? { text: 'Run now: condition met', tone: 'active' } : { text: 'Wait: condition not met', tone: 'ok' };
  }
  const known = reason === undefined ? undefined : REASON_WORDS[reason];
  if (!known) return { text: `Wait: ${status}`, tone: activate ? 'active' : 'ok' };
  return { text: known.text, detail: known.detail && status ? status : undefined, tone: known.tone };
}

/**
 * The decision with what the page knows besides it. A service that sends `reason` has weighed
 * the lockout and the pause itself; an older one has not, so a locked-out actuator or a paused
 * prototype is said here before its status (it will not dose either way).
 */
export function effectiveDecision(
  state: Decision,
  known: { lockout: { since: string; reason: string } | null; enabled: boolean; paused: boolean },
): Decision {
  if (state.reason !== undefined || !known.enabled) return state;
  if (known.paused) return { activate: false, reason: 'paused', status: state.status };
  if (known.lockout)
    return { activate: false, reason: 'locked_out', status: `Locked out since ${known.lockout.since}: ${known.lockout.reason}` };
  return state;
}

/** The next-dose line: the countdown, unless something other than the period holds the pump. */
export function nextDoseText(reason: string | undefined, msLeft: number): string {
  if (reason === 'paused') return 'not while dosing is paused';
  if (reason === 'locked_out' || reason === 'unusual') return 'not until unlocked';
  if (reason === 'disabled') return 'not while disabled';
  // Held by something the period does not end: a countdown would promise a dose that will not come.
  const held = HELD_TEXT[reason ?? ''];
  if (held) return held;
  return countdownText(msLeft);
}

/** The next-dose line of a pump held by something other than its period. */
const HELD_TEXT: Record<string, string> = {
  interlock: 'not while an interlock blocks it',
  limit: 'not until its limit frees',
  empty: 'not until the bottle is refilled',
  unusual: 'not until unlocked',
  no_measurement: 'not until a reading comes',
  restarted: 'not until a fresh reading comes',
  stale: 'not until a fresh reading comes',
  invalid: 'not until a valid reading comes',
  stuck: 'not until the reading moves',
  store_unavailable: 'not until the store answers',
};

/**
 * The card's warning before the lockout: how many of the newest doses in a row did not move the
 * reading (those not judged yet left aside; an answered one ends the run), against the count
 * that locks the pump out. Null when none did.
 */
export function unansweredWarning(
  doses: readonly Pick<ActivationRecord, 'answered'>[],
  lockoutAfter: number | null | undefined,
  reading: string,
): { count: number; text: string; near: boolean } | null {
  let count = 0;
  for (const dose of doses) {
    if (dose.answered === true) break;
    if (dose.answered === false) count++;
  }
  if (count === 0) return null;
  const of = lockoutAfter ? `${count} of ${lockoutAfter}` : `${count}`;
  const noun = count === 1 && !lockoutAfter ? 'dose' : 'doses';
  const text = `${of} ${noun} in a row did not move ${reading}`;
  return { count, text, near: lockoutAfter ? count * 2 >= lockoutAfter : false };
}

/**
 * Whether the pump has never run. The service records a dose with every run report and moves
 * `last_activated` only then (it starts at the creation time), so a pump with no recorded dose
 * has not run since doses are recorded: its `last_activated` is its creation, not a run.
 * `newestDose` is the newest dose of all time (`GET /actuators/{id}/activations?limit=1`).
 */
export function hasNeverRun(newestDose: Pick<ActivationRecord, 'activated_at'> | null | undefined): boolean {
  return !newestDose;
}

/** Milliseconds until the period after the last run (or the creation) has passed; 0 when it has. */
export function msUntilMayDose(actuator: Pick<Actuator, 'last_activated' | 'activation_period'>, nowMs: number): number {
  const due = Date.parse(actuator.last_activated) + actuator.activation_period * 1000;
  return Number.isFinite(due) ? Math.max(0, due - nowMs) : 0;
}

/**
 * "45 s", "4 min 05 s", "2 h 03 min": a countdown that reads at a glance. Rounded up by default,
 * so that 0 s means now; `floor` for a time left that should not read longer than it was set.
 */
export function durationText(ms: number, rounding: 'ceil' | 'floor' = 'ceil'): string {
  const seconds = Math.max(0, Math[rounding](ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  const pad = (n: number) => String(n).padStart(2, '0');
  if (minutes < 60) return `${minutes} min ${pad(seconds % 60)} s`;
  return `${Math.floor(minutes / 60)} h ${pad(minutes % 60)} min`;
}

/** "may dose in 4 min 05 s", or "may dose now" once the period has passed. */
export function countdownText(msLeft: number): string {
  return msLeft > 0 ? `may dose in ${durationText(msLeft)}` : 'may dose now';
}

/** Whether the rule holds, and the words for the value against the threshold: as the rule reads it. */
const COMPARISON: Record<Exclude<ActivationCondition, 'always' | 'schedule'>, (v: number, t: number) => [boolean, string]> = {
  high: (v, t) => (v > t ? [true, 'is above'] : [false, 'is not above']),
  low: (v, t) => (v < t ? [true, 'is below'] : [false, 'is not below']),
  // "below or above": the side it is on, or that it is on neither.
  low_or_high: (v, t) => (v < t ? [true, 'is below'] : v > t ? [true, 'is above'] : [false, 'is neither below nor above']),
};

/**
 * The sensor's newest value against the rule's threshold, as the rule reads it: "pH 7.1 is
 * above 6.5" (the condition holds) or "pH 6.2 is not above 6.5".
 */
export function conditionText(
  sensorLabel: string,
  value: number | null | undefined,
  condition: ActivationCondition,
  threshold: number,
): { text: string; met: boolean | null } {
  if (condition === 'always') return { text: 'runs whatever the value', met: true };
  if (condition === 'schedule') return { text: 'runs on its schedule', met: null };
  if (value === null || value === undefined) return { text: `${sensorLabel} has no reading yet`, met: null };
  const [met, words] = COMPARISON[condition](value, threshold);
  return { text: `${sensorLabel} ${round(value)} ${words} ${round(threshold)}`, met };
}

const round = (n: number) => String(Math.round(n * 1000) / 1000);

export interface DoseSummary {
  hourDoses: number;
  dayDoses: number;
  daySeconds: number;
  /** "2 of 6 doses in the last hour", "10 of 120 s of run time in the last 24 h". */
  hourText: string;
  dayText: string;
  /** A limit reached: one more dose would break it. */
  atLimit: boolean;
}

/**
 * The doses of the last hour and the last 24 h against `max_doses_per_hour` and
 * `max_seconds_per_day` (the service's rolling windows). `doses` are the last 24 h's.
 */
export function doseSummary(
  doses: readonly Pick<ActivationRecord, 'activated_at' | 'duration'>[],
  limits: Pick<Actuator, 'max_doses_per_hour' | 'max_seconds_per_day'>,
  nowMs: number,
): DoseSummary {
  let hourDoses = 0;
  let dayDoses = 0;
  let daySeconds = 0;
  for (const dose of doses) {
    const age = nowMs - Date.parse(dose.activated_at);
    if (age >= DAY_MS) continue;
    dayDoses++;
    daySeconds += dose.duration;
    if (age < HOUR_MS) hourDoses++;
  }
  daySeconds = Math.round(daySeconds * 100) / 100;
  const perHour = limits.max_doses_per_hour;
  const perDay = limits.max_seconds_per_day;
  const plural = (n: number) => (n === 1 ? 'dose' : 'doses');
  const hourText =
    perHour === null
      ? `${hourDoses} ${plural(hourDoses)} in the last hour (no limit)`
      : `${hourDoses} of ${perHour} ${plural(perHour)} in the last hour`;
  const dayText =
    perDay === null
      ? `${dayDoses} ${plural(dayDoses)}, ${daySeconds} s of run time in the last 24 h (no limit)`
      : `${dayDoses} ${plural(dayDoses)}, ${daySeconds} of ${perDay} s of run time in the last 24 h`;
  const atLimit = (perHour !== null && hourDoses >= perHour) || (perDay !== null && daySeconds >= perDay);
  return { hourDoses, dayDoses, daySeconds, hourText, dayText, atLimit };
}

/** Milliseconds of pause left at `nowMs`, or null when the prototype is not paused. */
export function pauseLeftMs(pausedUntil: string | null | undefined, nowMs: number): number | null {
  if (!pausedUntil) return null;
  const left = Date.parse(pausedUntil) - nowMs;
  return left > 0 ? left : null;
}

/** The controller's last poll: "no controller has polled yet", "last poll 12 s ago", offline past its timeout. */
export function pollText(
  actuator: Pick<Actuator, 'last_polled' | 'controller_timeout'>,
  nowMs: number,
): { text: string; offline: boolean } {
  if (!actuator.last_polled) return { text: 'no controller has polled yet', offline: false };
  const ago = Math.max(0, nowMs - Date.parse(actuator.last_polled));
  const offline = actuator.controller_timeout !== null && ago > actuator.controller_timeout * 1000;
  return { text: `last poll ${durationText(ago)} ago${offline ? ': controller offline' : ''}`, offline };
}

/**
 * The doses to mark on a chart: their instants in seconds (the chart's x), those inside the
 * range shown, ascending.
 */
export function doseTicks(doses: readonly Pick<ActivationRecord, 'activated_at'>[], startMs: number, endMs: number): number[] {
  return doses
    .map((dose) => Date.parse(dose.activated_at))
    .filter((ms) => ms >= startMs && ms <= endMs)
    .sort((a, b) => a - b)
    .map((ms) => ms / 1000);
}

/**
 * The condition a new pump should run on, from what it doses: acid lowers the pH, so an acid
 * pump runs when the value is above its condition value; a base pump raises it and nutrients
 * raise the EC, so they run when the value is below. A form that defaulted to "below" for every
 * type set up an acid pump dosing a tank whose pH was already low.
 */
export function defaultCondition(type: Actuator['actuator_type']): Actuator['activation_condition'] {
  return type === 'acid_pump' ? 'high' : 'low';
}

/**
 * Where dosing that aims meets the one dosing decision (safety/decide.ts). The decision calls
 * these and nothing else of this folder:
 *
 * - `scheduledDecision`: a timed output (`activation_condition: "schedule"`) answers its schedule:
 *   on with the rest of the on-window as `duration`, else off. Disabled actuators and paused
 *   prototypes stay off; no dose rule applies (a light is not a dose).
 * - `sequencedDecision`: a part of a dosing sequence (`dose_order`) that would dose waits while
 *   another goes first, mixes or pauses (sequence.ts).
 * - `aimedInput`: for an actuator with a set point, the condition reads `setpoint ± band`, and a
 *   proportional actuator's dose is sized (sizing.ts) before the rules run, so that every limit
 *   counts the sized seconds and millilitres. The answer carries `setpoint`, `error` and `gain`.
 */
import { effectiveGain } from './gain.js';
import { scheduleAt, type ScheduleAnswer, type StoredSchedule } from './schedule.js';
import { aimError, gapToSetpoint, outsideBand } from './setpoint.js';
import { sizeDose } from './sizing.js';
import { machineZone } from './zone.js';
import type { Light } from './calendar.js';
import { DEFAULT_SEQUENCE_PAUSE_S, sequenceStatus, sequenceWait, type SequenceMember } from './sequence.js';

/**
 * What these functions read of the dosing decision's input and answer (safety/inputs.ts,
 * safety/reasons.ts hold the whole of them; they are written here by shape so that this folder
 * depends on none of the decision's own modules).
 */
export interface DecisionInput {
  actuator: {
    enabled: boolean;
    activation_condition: string;
    activation_period: number;
    activation_duration: number;
    aim?: ActuatorAim;
  };
  sensor: { newest: { value: number } | null } | undefined;
  pausedUntil: number | null;
  now: number;
  zone?: string;
  recipeLight?: Light | null;
  sequence?: SequenceInput;
}

export interface Decision {
  activate: boolean;
  status: string;
  reason: string;
  duration: number;
  period: number;
  conditionMet: boolean;
  aim?: AimShown;
  scheduleChangesAt?: number | null;
  sequenceUntil?: number | null;
}

type ScheduledReason = 'disabled' | 'paused' | 'ok';

/** What the decision reads of an actuator's aim settings (absent on actuators from before them: none). */
export interface ActuatorAim {
  setpoint: number | null;
  band: number;
  dose_mode: 'fixed' | 'proportional';
  dose_fraction: number;
  min_duration: number;
  max_duration: number | null;
  initial_gain: number | null;
  /** The gain learned from the pump's answered doses (null: fewer than 3 yet). */
  learned_gain: number | null;
  schedule: StoredSchedule | null;
}

/** The aim of a decision, as the state read shows it. */
export interface AimShown {
  setpoint: number | null;
  error: number | null;
  gain: number | null;
}

/** The time zone schedules and recipes read: TZ, else the machine's. */
export const serviceZone = (): string => machineZone();

const SCHEDULE_STATUS = {
  on: (until: number | null) => (until === null ? 'Schedule: on' : `Schedule: on until ${new Date(until).toISOString()}`),
  off: (until: number | null) => (until === null ? 'Schedule: off' : `Schedule: off until ${new Date(until).toISOString()}`),
};

/** Where the actuator's schedule stands at `at` (off without one). */
export function scheduleNow(aim: ActuatorAim | undefined, at: number, zone: string, recipeLight: Light | null): ScheduleAnswer {
  if (!aim?.schedule) return { on: false, remaining: 0, changesAt: null };
  return scheduleAt(aim.schedule, at, zone, recipeLight);
}

/** The decision of a timed output, or null for an actuator that is not one. */
export function scheduledDecision(input: DecisionInput): (Decision & { reason: ScheduledReason }) | null {
  const { actuator, now } = input;
  if (actuator.activation_condition !== 'schedule') return null;
  const base = { period: actuator.activation_period, conditionMet: false };
  if (actuator.enabled !== true) return { ...base, activate: false, status: 'Actuator disabled', reason: 'disabled' as const, duration: 0 };
  if (input.pausedUntil !== null && !(now >= input.pausedUntil)) {
    return {
      ...base,
      activate: false,
      status: `Prototype paused until ${new Date(input.pausedUntil).toISOString()}`,
      reason: 'paused' as const,
      duration: 0,
    };
  }
  const answer = scheduleNow(actuator.aim, now, input.zone ?? serviceZone(), input.recipeLight ?? null);
  return {
    ...base,
    activate: answer.on,
    status: answer.on ? SCHEDULE_STATUS.on(answer.changesAt) : SCHEDULE_STATUS.off(answer.changesAt),
    reason: 'ok' as const,
    duration: answer.remaining,
    conditionMet: answer.on,
    scheduleChangesAt: answer.changesAt,
  };
}

/** When time alone next changes a timed output's decision (null: not one, or never). */
export function scheduleChangesAt(input: DecisionInput): number | null {
  if (input.actuator.activation_condition !== 'schedule') return null;
  if (input.actuator.enabled !== true) return null;
  if (input.pausedUntil !== null && !(input.now >= input.pausedUntil)) return input.pausedUntil;
  return scheduleNow(input.actuator.aim, input.now, input.zone ?? serviceZone(), input.recipeLight ?? null).changesAt;
}

/** Whether the actuator's condition holds on `value`: the band around its set point, else the threshold rule. */
export function aimedCondition(input: DecisionInput, value: number, threshold: (v: number) => boolean): boolean {
  const aim = input.actuator.aim;
  if (!aim || aim.setpoint === null) return threshold(value);
  return outsideBand(input.actuator.activation_condition, value, { setpoint: aim.setpoint, band: aim.band });
}

/**
 * The input the rules read (its activation_duration the sized dose while a proportional actuator
 * would dose, so that the limits count what it will run) and the aim to show. Unchanged for an
 * actuator without a set point.
 */
export function aimedInput<I extends DecisionInput>(input: I, conditionMet: boolean): { input: I; shown: AimShown | null } {
  const { actuator } = input;
  const aim = actuator.aim;
  if (!aim || aim.setpoint === null) return { input, shown: null };
  const value = input.sensor?.newest?.value;
  const error = value === undefined || !Number.isFinite(value) ? null : aimError(value, aim.setpoint);
  if (aim.dose_mode !== 'proportional') return { input, shown: { setpoint: aim.setpoint, error, gain: null } };
  const gain = effectiveGain(aim.learned_gain, aim.initial_gain);
  const shown = { setpoint: aim.setpoint, error, gain: gain.reported };
  if (!conditionMet || value === undefined) return { input, shown };
  const seconds = sizeDose(gapToSetpoint(actuator.activation_condition, value, aim.setpoint), gain.value, {
    dose_fraction: aim.dose_fraction,
    min_duration: aim.min_duration,
    max_duration: aim.max_duration,
    activation_duration: actuator.activation_duration,
  });
  return { input: { ...input, actuator: { ...actuator, activation_duration: seconds } }, shown };
}

/** SEQUENCE_PAUSE in seconds (a number of seconds in the environment; default 60). */
export function sequencePauseFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.SEQUENCE_PAUSE;
  const seconds = raw === undefined || raw.trim() === '' ? NaN : Number(raw);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : DEFAULT_SEQUENCE_PAUSE_S;
}

/** The other actuators of a sequence as the decision of one of them reads them. */
export interface SequenceInput {
  self: { actuator_id: number; dose_order: number | null };
  others: readonly SequenceMember[];
  /** SEQUENCE_PAUSE, seconds. */
  pauseS: number;
  names?: ReadonlyMap<number, string | null>;
}

/**
 * Whether a decision that would dose waits for another part of its sequence (sequence.ts): the
 * decision then answers `activate: false`, reason `sequenced`, naming the one it waits for.
 */
export function sequencedDecision<D extends Decision>(
  decision: D,
  sequence: SequenceInput | undefined,
  now: number,
): D | (D & { reason: 'sequenced' }) {
  if (!sequence || !decision.activate || decision.reason !== 'ok') return decision;
  const wait = sequenceWait(sequence.self, sequence.others, now, sequence.pauseS);
  if (!wait) return decision;
  return {
    ...decision,
    activate: false,
    reason: 'sequenced',
    status: sequenceStatus(wait, sequence.names?.get(wait.actuator_id)),
    sequenceUntil: wait.until,
  };
}

/**
 * When time alone may next change a sequenced wait: the end of a mixing time or pause of another
 * part, or the instant another part's own decision changes (its period elapsing), given as
 * `changesAt` of each member.
 */
export function sequenceChangesAt(input: DecisionInput): number | null {
  const s = input.sequence;
  if (!s) return null;
  let next: number | null = null;
  const consider = (t: number | null | undefined) => {
    if (t !== null && t !== undefined && t > input.now && (next === null || t < next)) next = t;
  };
  for (const o of s.others) {
    if (o.lastDosedAt !== null) {
      consider(o.lastDosedAt + o.mixing * 1000);
      consider(o.lastDosedAt + s.pauseS * 1000);
    }
    consider(o.busyUntil);
    consider(o.changesAt);
  }
  return next;
}

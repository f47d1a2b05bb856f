/**
 * Whether a dose did anything (docs/api.md §14). With `min_response` null (automatic) a dose is
 * judged on the filtered readings against the probe's own noise (response.ts, `judgeResponse`),
 * and may be found reversed. With an explicit `min_response`, a dose is *answered* when the newest reading
 * taken at least `response_delay` seconds after it (null = the activation period) has moved from
 * `value_before` by strictly more than `min_response` in the direction the actuator corrects: down
 * for `high`, up for `low`, toward `condition_value` for `low_or_high`. Until such a reading exists
 * the dose is not judged (null). `always` actuators, doses without `value_before`, and a
 * `low_or_high` dose taken exactly at `condition_value` (no corrective direction) are never judged.
 * A reading that cannot be compared (NaN) judges the dose unanswered, which counts toward lockout.
 *
 * A run of unanswered doses locks the actuator out once it reaches `lockout_after` (default 20,
 * null = off). The caller judges doses in the order they were taken and keeps the streak with
 * `nextUnansweredStreak`.
 */
import type { ActivationCondition } from '../domain/actuator.js';
import { hasElapsed } from './instants.js';
import { judgeFiltered, type TimedValue } from './response.js';

export const DEFAULT_LOCKOUT_AFTER = 20;
export const DEFAULT_LOCKOUT_REVERSED_AFTER = 3;

export interface DoseToJudge {
  activated_at: number;
  value_before: number | null;
}

export type { TimedValue };

/** +1 when the dose should raise the reading, -1 when it should lower it, null when neither. */
export function correctiveDirection(condition: ActivationCondition, valueBefore: number, conditionValue: number): 1 | -1 | null {
  switch (condition) {
    case 'high':
      return -1;
    case 'low':
      return 1;
    case 'low_or_high':
      if (valueBefore > conditionValue) return -1;
      if (valueBefore < conditionValue) return 1;
      return null;
    default:
      return null;
  }
}

/**
 * true (answered), false (unanswered) or null (not judged). `readingsAfter` are the sensor's
 * readings in any order; those taken less than the delay after the dose are ignored, and of the
 * rest the newest decides (equal timestamps: the later in the list).
 */
export function judgeDose(
  dose: DoseToJudge,
  condition: ActivationCondition,
  conditionValue: number,
  minResponse: number | null,
  readingsAfter: readonly TimedValue[],
  responseDelay: number | null,
  period: number,
): boolean | null {
  const moved = explicitMove(dose, condition, conditionValue, readingsAfter, responseDelay, period);
  return moved === null ? null : moved > (minResponse ?? 0);
}

/**
 * How far the newest reading at least the response delay after a dose moved in the corrective
 * direction (negative: the wrong way); null: no such reading yet, or nothing to correct toward.
 */
function explicitMove(
  dose: DoseToJudge,
  condition: ActivationCondition,
  conditionValue: number,
  readingsAfter: readonly TimedValue[],
  responseDelay: number | null,
  period: number,
): number | null {
  const before = dose.value_before;
  if (before === null || before === undefined || Number.isNaN(before)) return null;
  const direction = correctiveDirection(condition, before, conditionValue);
  if (direction === null) return null;
  const delay = responseDelay ?? period;
  let judging: TimedValue | undefined;
  for (const reading of readingsAfter) {
    if (hasElapsed(dose.activated_at, reading.timestamp, delay) && (judging === undefined || reading.timestamp >= judging.timestamp)) {
      judging = reading;
    }
  }
  if (judging === undefined) return null;
  return direction === 1 ? judging.value - before : before - judging.value;
}

/** The count of unanswered doses in a row after judging one more: answered resets it, null leaves it. */
export function nextUnansweredStreak(streak: number, answered: boolean | null): number {
  if (answered === true) return 0;
  if (answered === false) return streak + 1;
  return streak;
}

/** Whether the streak locks the actuator out. null = lockout off; a NaN setting locks out (fail closed). */
export function shouldLockOut(streak: number, lockoutAfter: number | null | undefined = DEFAULT_LOCKOUT_AFTER): boolean {
  if (lockoutAfter === null) return false;
  return !(streak < lockoutAfter);
}

export interface Judgement {
  answered: boolean;
  /** The reading moved the wrong way beyond the noise (automatic judging only). */
  reversed: boolean;
  /** The move in the corrective direction: of the filtered readings, or of the newest one for an explicit min_response. */
  response: number | null;
}

/**
 * Judges one dose by its actuator's setting: an explicit `minResponse` as `judgeDose` does, null
 * on the filtered readings against the probe's noise. `readings` are the sensor's readings around
 * the dose (the explicit rule reads the newest of them). null: not judged (yet or ever).
 */
export function judgeResponse(
  dose: DoseToJudge,
  condition: ActivationCondition,
  conditionValue: number,
  minResponse: number | null,
  readings: readonly TimedValue[],
  responseDelay: number | null,
  period: number,
): Judgement | null {
  if (minResponse !== null) {
    const moved = explicitMove(dose, condition, conditionValue, readings, responseDelay, period);
    return moved === null ? null : { answered: moved > minResponse, reversed: false, response: moved };
  }
  const before = dose.value_before;
  if (before === null || before === undefined || Number.isNaN(before)) return null;
  const direction = correctiveDirection(condition, before, conditionValue);
  if (direction === null) return null;
  const judged = judgeFiltered(dose.activated_at, direction, readings, responseDelay ?? period);
  if (judged === null) return null;
  return { answered: judged.answered, reversed: judged.reversed, response: judged.moved };
}

/** The count of reversed doses in a row after judging one more: any other judged dose ends the run. */
export function nextReversedStreak(streak: number, judged: Judgement | null): number {
  if (judged === null) return streak;
  return judged.reversed ? streak + 1 : 0;
}

/** Whether reversed doses in a row lock the actuator out. null = off; a NaN setting locks out. */
export function shouldLockOutReversed(streak: number, after: number | null | undefined = DEFAULT_LOCKOUT_REVERSED_AFTER): boolean {
  if (after === null) return false;
  return !(streak < after);
}

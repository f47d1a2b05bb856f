/**
 * The rules of the dosing decision, one per reason, in the order of docs/api.md §14 (with `empty`
 * of §15 between `interlock` and `waiting`). Each says whether it holds at an instant (its status)
 * and, for the rules time alone can change, the next instant it could change; `decide` and
 * `nextDecisionChange` walk this one list, so they cannot disagree.
 *
 * Every rule is written so that a missing or NaN input makes it hold: `!(a <= b)`, never `a > b`.
 */
import { receivedBeforeStart, isStale, staleAt } from './freshness.js';
import { elapsesAt, firstMillisecondAfter, hasElapsed } from './instants.js';
import type { DecisionInput } from './inputs.js';
import { firstInterlockBlock, interlocksChangeAt } from './interlocks.js';
import { anyLimitFreesAt, bindingLimits } from './limits.js';
import { SAFETY_STATUS, type Reason } from './reasons.js';
import { sensorRange } from './sensor-health.js';
import { isStuckRun, stuckAt } from './stuck.js';
import { isValid } from './validity.js';

export interface Rule {
  reason: Exclude<Reason, 'ok'>;
  /** The status when the rule holds at `at`, else null. */
  check(input: DecisionInput, at: number): string | null;
  /** The first instant after `now` at which time alone could change this rule's answer or status. */
  changesAt?(input: DecisionInput, now: number): number | null;
}

const isPaused = (pausedUntil: number | null, at: number) => pausedUntil !== null && !(at >= pausedUntil);
const periodElapsed = ({ actuator }: DecisionInput, at: number) => hasElapsed(actuator.last_activated, at, actuator.activation_period);

export const RULES: readonly Rule[] = [
  {
    reason: 'disabled',
    check: ({ actuator }) => (actuator.enabled !== true ? SAFETY_STATUS.disabled : null),
  },
  {
    reason: 'paused',
    check: ({ pausedUntil }, at) => (isPaused(pausedUntil, at) ? SAFETY_STATUS.paused(pausedUntil as number) : null),
    changesAt: ({ pausedUntil }, now) =>
      pausedUntil !== null && isPaused(pausedUntil, now) ? firstMillisecondAfter(now, pausedUntil, (t) => !isPaused(pausedUntil, t)) : null,
  },
  {
    reason: 'locked_out',
    check: ({ actuator }) =>
      actuator.lockout !== null && actuator.lockout?.kind !== 'unusual'
        ? SAFETY_STATUS.lockedOut(actuator.lockout ?? { since: NaN, reason: 'unknown' })
        : null,
  },
  {
    // Held on unusual consumption until unlocked: a lockout of its own kind, so a grower knows to check the probe.
    reason: 'unusual',
    check: ({ actuator }) => (actuator.lockout?.kind === 'unusual' ? SAFETY_STATUS.unusual(actuator.lockout) : null),
  },
  {
    reason: 'no_measurement',
    check: ({ sensor }) => (!sensor?.newest ? SAFETY_STATUS.noMeasurement : null),
  },
  {
    reason: 'restarted',
    check: ({ sensor, processStartedAt }) => (receivedBeforeStart(sensor.newest!, processStartedAt) ? SAFETY_STATUS.restarted : null),
  },
  {
    reason: 'stale',
    check: ({ sensor, staleAfterDefaultMs }, at) =>
      isStale(sensor.settings, sensor.newest!.timestamp, at, staleAfterDefaultMs) ? SAFETY_STATUS.stale : null,
    changesAt: ({ sensor, staleAfterDefaultMs }, now) => staleAt(sensor.settings, sensor.newest!.timestamp, now, staleAfterDefaultMs),
  },
  {
    reason: 'invalid',
    check: ({ sensor }) => {
      const range = sensorRange(sensor);
      return isValid(sensor.newest!.value, range) ? null : SAFETY_STATUS.invalid(sensor.newest!.value, range);
    },
  },
  {
    reason: 'stuck',
    check: ({ sensor }, at) =>
      isStuckRun(sensor.run, sensor.settings.stuck_after, at) ? SAFETY_STATUS.stuck(sensor.newest!.value, sensor.run?.since ?? NaN) : null,
    changesAt: ({ sensor }, now) => stuckAt(sensor.run, sensor.settings.stuck_after, now),
  },
  {
    reason: 'interlock',
    check: ({ actuator, interlockSensors, staleAfterDefaultMs }, at) =>
      Array.isArray(actuator.interlocks) && Array.isArray(interlockSensors)
        ? firstInterlockBlock(actuator.interlocks, interlockSensors, at, staleAfterDefaultMs)
        : 'Interlock: the interlocks are unknown',
    changesAt: ({ actuator, interlockSensors, staleAfterDefaultMs }, now) =>
      Array.isArray(actuator.interlocks) && Array.isArray(interlockSensors)
        ? interlocksChangeAt(actuator.interlocks, interlockSensors, now, staleAfterDefaultMs)
        : null,
  },
  {
    reason: 'empty',
    check: ({ actuator }) => (actuator.stock_ml !== null && !(actuator.stock_ml > 0) ? SAFETY_STATUS.empty : null),
  },
  {
    reason: 'waiting',
    check: (input, at) => (periodElapsed(input, at) ? null : SAFETY_STATUS.waiting),
    changesAt: (input, now) =>
      periodElapsed(input, now) ? null : elapsesAt(input.actuator.last_activated, input.actuator.activation_period, now),
  },
  {
    reason: 'zero_duration',
    check: ({ actuator }) => (actuator.activation_duration > 0 ? null : SAFETY_STATUS.zeroDuration),
  },
  {
    reason: 'limit',
    check: ({ actuator, doses }, at) => {
      if (!Array.isArray(doses)) return SAFETY_STATUS.limitUnknown;
      const kind = bindingLimits(actuator, doses, at)[0];
      if (kind === undefined) return null;
      const max = { doses: actuator.max_doses_per_hour, seconds: actuator.max_seconds_per_day, ml: actuator.max_ml_per_day }[kind];
      return SAFETY_STATUS.limit(kind, max);
    },
    changesAt: ({ actuator, doses }, now) => (Array.isArray(doses) ? anyLimitFreesAt(actuator, doses, now) : null),
  },
];

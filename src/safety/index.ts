/** Dosing safety (docs/api.md §14, §15): the pure rules and the one decision built from them. */
export { decide } from './decide.js';
export { nextDecisionChange } from './decision-change.js';
export { controllerOfflineAt, isControllerOffline } from './controller.js';
export type * from './inputs.js';
export { REASONS, SAFETY_STATUS, type Decision, type Reason } from './reasons.js';
export { DEFAULT_VALID_RANGES, describeRange, isValid, validRange, type ValidRange } from './validity.js';
export { coversStuckRun, equalRun, isStuck, isStuckRun, stuckAt, STUCK_MIN_READINGS } from './stuck.js';
export { isStale, receivedBeforeStart, staleAt } from './freshness.js';
export { sensorProblem, type SensorProblem } from './sensor-health.js';
export { firstInterlockBlock, interlockBlock } from './interlocks.js';
export {
  anyLimitFreesAt,
  bindingLimits,
  DAY_SECONDS,
  dosesInLastHour,
  HOUR_SECONDS,
  isInWindow,
  leavesWindowAt,
  limitBinds,
  limitFreesAt,
  mlInLastDay,
  secondsInLastDay,
  type LimitKind,
  type LimitSettings,
} from './limits.js';
export { doseVolume, isStockLow, MAX_DOSE_ML, stockAfterDose, toMicrolitre } from './stock.js';
export {
  correctiveDirection,
  DEFAULT_LOCKOUT_AFTER,
  DEFAULT_LOCKOUT_REVERSED_AFTER,
  judgeDose,
  judgeResponse,
  nextReversedStreak,
  nextUnansweredStreak,
  shouldLockOut,
  shouldLockOutReversed,
  type Judgement,
} from './judging.js';
export { judgeFiltered, probeNoise } from './response.js';
export { distanceToCritical, exceedsExpectedEffect, learnedEffectPerSecond, MIN_LEARNED_DOSES } from './expected-effect.js';
export {
  DEFAULT_UNUSUAL_FACTOR,
  DEFAULT_USUAL_DAYS,
  DEFAULT_USUAL_WINDOW,
  isUnusual,
  MIN_USUAL_DAYS,
  usage,
  type DoseAmount,
  type Usage,
} from './usual.js';

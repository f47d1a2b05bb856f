import type { ActuatorBase, InterlockInput } from '../domain/actuator.js';
import type { ValidationIssue } from '../core/errors.js';
import type { StoredInterlock } from '../store/index.js';
import {
  DEFAULT_LOCKOUT_AFTER,
  DEFAULT_LOCKOUT_REVERSED_AFTER,
  DEFAULT_UNUSUAL_FACTOR,
  DEFAULT_USUAL_DAYS,
  DEFAULT_USUAL_WINDOW,
  MAX_DOSE_ML,
} from '../safety/index.js';

type SafetySettings = Pick<
  Required<ActuatorBase>,
  | 'max_doses_per_hour'
  | 'max_seconds_per_day'
  | 'min_response'
  | 'response_delay'
  | 'lockout_after'
  | 'controller_timeout'
  | 'lockout_reversed_after'
  | 'usual_days'
  | 'usual_window'
  | 'unusual_factor'
  | 'flow_ml_per_s'
  | 'max_ml_per_day'
  | 'stock_ml'
  | 'stock_low_ml'
>;

/** The dosing safety and volume settings of a new actuator, with the contract's defaults for those left out (docs/api.md §14, §15). */
export function safetyDefaults(actuator: ActuatorBase): SafetySettings {
  return {
    max_doses_per_hour: actuator.max_doses_per_hour ?? null,
    max_seconds_per_day: actuator.max_seconds_per_day ?? null,
    // Left out or null: automatic, judged against the probe's own noise.
    min_response: actuator.min_response ?? null,
    response_delay: actuator.response_delay ?? null,
    // Left out: the default; null: the client turned lockout off.
    lockout_after: actuator.lockout_after === undefined ? DEFAULT_LOCKOUT_AFTER : actuator.lockout_after,
    controller_timeout: actuator.controller_timeout ?? null,
    lockout_reversed_after:
      actuator.lockout_reversed_after === undefined ? DEFAULT_LOCKOUT_REVERSED_AFTER : actuator.lockout_reversed_after,
    usual_days: actuator.usual_days ?? DEFAULT_USUAL_DAYS,
    usual_window: actuator.usual_window ?? DEFAULT_USUAL_WINDOW,
    unusual_factor: actuator.unusual_factor === undefined ? DEFAULT_UNUSUAL_FACTOR : actuator.unusual_factor,
    flow_ml_per_s: actuator.flow_ml_per_s ?? null,
    max_ml_per_day: actuator.max_ml_per_day ?? null,
    stock_ml: actuator.stock_ml ?? null,
    stock_low_ml: actuator.stock_low_ml ?? null,
  };
}

/**
 * What the schema cannot say about volumes (docs/api.md §15): a daily ml limit and a tracked stock
 * both count millilitres, which only a flow gives. Without one the limit would never hold and the
 * bottle would never empty, so the grower is told at once rather than trusting a count that does
 * not run. A flow whose dose (activation_duration × flow_ml_per_s) is over MAX_DOSE_ML is refused:
 * such a product overflows to Infinity, which no record can keep or answer. `loc` is where the
 * actuator's fields are in the request.
 */
export function volumeIssues(
  settings: Pick<SafetySettings, 'flow_ml_per_s' | 'max_ml_per_day' | 'stock_ml'> & { activation_duration: number },
  loc: (string | number)[],
): ValidationIssue[] {
  if (settings.flow_ml_per_s !== null) {
    const volume = settings.activation_duration * settings.flow_ml_per_s;
    if (!(volume <= MAX_DOSE_ML)) {
      return [
        {
          loc: [...loc, 'flow_ml_per_s'],
          msg: `activation_duration × flow_ml_per_s must be at most ${MAX_DOSE_ML} ml a dose`,
          type: 'volume_too_large',
        },
      ];
    }
    return [];
  }
  const issues: ValidationIssue[] = [];
  if (settings.max_ml_per_day !== null) {
    issues.push({ loc: [...loc, 'max_ml_per_day'], msg: 'max_ml_per_day needs flow_ml_per_s', type: 'volume_needs_flow' });
  }
  if (settings.stock_ml !== null) {
    issues.push({ loc: [...loc, 'stock_ml'], msg: 'stock_ml needs flow_ml_per_s', type: 'volume_needs_flow' });
  }
  return issues;
}

/** Interlocks as sent (a bound left out is null), as stored. */
export function normalInterlocks(interlocks: readonly InterlockInput[]): StoredInterlock[] {
  return interlocks.map((i) => ({ sensor_id: i.sensor_id, block_below: i.block_below ?? null, block_above: i.block_above ?? null }));
}

/**
 * What the schema cannot say about interlocks: each has at least one bound, and its bounds are
 * not crossed (`block_below` > `block_above` would block every reading). `loc` is where the
 * interlocks list is in the request.
 */
export function interlockIssues(interlocks: readonly StoredInterlock[], loc: (string | number)[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  interlocks.forEach((interlock, index) => {
    const at = [...loc, index];
    if (interlock.block_below === null && interlock.block_above === null) {
      issues.push({ loc: at, msg: 'An interlock needs block_below, block_above or both', type: 'interlock_no_bound' });
    } else if (interlock.block_below !== null && interlock.block_above !== null && interlock.block_below > interlock.block_above) {
      issues.push({ loc: at, msg: 'An interlock needs block_below ≤ block_above', type: 'interlock_bounds_crossed' });
    }
  });
  return issues;
}

/**
 * An actuator's aim settings as stored, with the defaults for those a create leaves out, and the
 * rules the request schema cannot say (they read two fields at once).
 */
import type { ActuatorBase, Schedule } from '../domain/actuator.js';
import type { ValidationIssue } from '../core/errors.js';
import { DEFAULT_DOSE_FRACTION, DEFAULT_MIN_DURATION } from './sizing.js';

export interface AimSettings {
  setpoint: number | null;
  band: number;
  dose_mode: 'fixed' | 'proportional';
  dose_fraction: number;
  min_duration: number;
  max_duration: number | null;
  initial_gain: number | null;
  dose_order: number | null;
  schedule: Schedule | null;
}

export function aimDefaults(a: Partial<Pick<ActuatorBase, keyof AimSettings>>): AimSettings {
  return {
    setpoint: a.setpoint ?? null,
    band: a.band ?? 0,
    dose_mode: a.dose_mode ?? 'fixed',
    dose_fraction: a.dose_fraction ?? DEFAULT_DOSE_FRACTION,
    min_duration: a.min_duration ?? DEFAULT_MIN_DURATION,
    max_duration: a.max_duration ?? null,
    initial_gain: a.initial_gain ?? null,
    dose_order: a.dose_order ?? null,
    schedule: a.schedule ?? null,
  };
}

/** 422 issues for an actuator's merged settings; `loc` is where its fields are in the request. */
export function aimIssues(
  a: AimSettings & Pick<ActuatorBase, 'activation_condition' | 'activation_duration'>,
  loc: (string | number)[],
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (a.max_duration !== null && a.min_duration > a.max_duration) {
    issues.push({ loc: [...loc, 'min_duration'], msg: 'min_duration must not exceed max_duration', type: 'min_over_max' });
  }
  if (a.dose_mode === 'proportional' && a.setpoint === null) {
    issues.push({ loc: [...loc, 'setpoint'], msg: 'A proportional dose needs a setpoint to aim for', type: 'proportional_needs_setpoint' });
  }
  if (a.activation_condition === 'schedule' && a.schedule === null) {
    issues.push({ loc: [...loc, 'schedule'], msg: 'activation_condition "schedule" needs a schedule', type: 'schedule_missing' });
  }
  if (a.schedule !== null) issues.push(...scheduleIssues(a.schedule, [...loc, 'schedule']));
  return issues;
}

/** A schedule is exactly one kind, whole: `on` with `hours`, `from_recipe`, or `every` with `for`. */
export function scheduleIssues(s: Schedule, loc: (string | number)[]): ValidationIssue[] {
  const kinds = [s.on !== undefined || s.hours !== undefined, s.from_recipe !== undefined, s.every !== undefined || s.for !== undefined];
  const count = kinds.filter(Boolean).length;
  if (count !== 1) {
    const msg = count === 0 ? 'A schedule needs on and hours, from_recipe, or every and for' : 'A schedule is one kind only';
    return [{ loc, msg, type: 'schedule_kind' }];
  }
  const issues: ValidationIssue[] = [];
  const need = (field: keyof Schedule, why: string) => {
    if (s[field] === undefined) issues.push({ loc: [...loc, field], msg: why, type: 'missing' });
  };
  if (kinds[0]) {
    need('on', 'A daily schedule needs on');
    need('hours', 'A daily schedule needs hours');
  }
  if (kinds[2]) {
    need('every', 'Cycles need every');
    need('for', 'Cycles need for');
  }
  if (s.between !== undefined && !kinds[2]) issues.push({ loc: [...loc, 'between'], msg: 'between is for cycles', type: 'schedule_kind' });
  return issues;
}

/**
 * Set point and band (an actuator's `setpoint`, `band`): with a set point, a `high` actuator doses
 * while the reading is above `setpoint + band`, a `low` one below `setpoint − band`, `low_or_high`
 * either way. Inside the band nothing doses; the threshold rule of `condition_value` applies only
 * to actuators without a set point.
 */
import type { ActivationCondition } from '../domain/actuator.js';

export interface Aim {
  setpoint: number;
  band: number;
}

/** Whether the reading `value` is outside the band on the side this actuator corrects. NaN never doses. */
export function outsideBand(condition: ActivationCondition | string, value: number, aim: Aim): boolean {
  const band = aim.band >= 0 ? aim.band : 0;
  switch (condition) {
    case 'high':
      return value > aim.setpoint + band;
    case 'low':
      return value < aim.setpoint - band;
    case 'low_or_high':
      return value > aim.setpoint + band || value < aim.setpoint - band;
    case 'always':
      return true;
    default:
      return false;
  }
}

/** The reading minus the set point (positive: above it). */
export function aimError(value: number, setpoint: number): number {
  return value - setpoint;
}

/**
 * How far the actuator has to move the reading to reach the set point, in the direction it doses
 * (≥ 0; 0 when the reading is already at or past the set point on its side, or cannot be read).
 */
export function gapToSetpoint(condition: ActivationCondition | string, value: number, setpoint: number): number {
  const error = aimError(value, setpoint);
  let gap: number;
  switch (condition) {
    case 'high':
      gap = error;
      break;
    case 'low':
      gap = -error;
      break;
    case 'low_or_high':
      gap = Math.abs(error);
      break;
    default:
      gap = 0;
  }
  return gap > 0 ? gap : 0;
}

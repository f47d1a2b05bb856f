/**
 * A run a person asks for (`POST /actuators/{id}/run`, docs/api.md "Hands-on"): priming a tube,
 * measuring a flow into a cup. It runs past the reading's condition and the period, but never past
 * what stops a pump for the grower's or the tank's sake.
 */
import type { Decision } from '../safety/index.js';

/** Seconds a manual run may last. */
export const MANUAL_RUN_MIN_SECONDS = 1;
export const MANUAL_RUN_MAX_SECONDS = 60;

/** The decisions that refuse a manual run (its reason); any other lets it run. */
const REFUSING: ReadonlySet<Decision['reason']> = new Set(['disabled', 'paused', 'locked_out', 'interlock', 'empty', 'limit']);

/** Why a manual run may not run under this decision (its reason), or null when it may. */
export function manualRunRefusal(reason: Decision['reason']): Decision['reason'] | null {
  return REFUSING.has(reason) ? reason : null;
}

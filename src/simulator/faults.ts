/**
 * The faults a run can have, as pure modifiers: of the tank's parameters (an empty acid bottle,
 * a tank low on water), of what the probes say (a stuck or drifting pH probe), or of the parts
 * around the tank (a dead controller, a service restart: see the runners).
 */
import type { Readings, TankParams } from './tank.js';

export const FAULTS = ['stuck-ph', 'drifting-ph', 'empty-acid', 'low-water', 'dead-controller', 'restart'] as const;
export type Fault = (typeof FAULTS)[number];

/** A frozen probe repeats one number; 8.0 is well above the pump's 6.5. */
export const STUCK_PH = 8.0;
/** A drifting probe reads this much higher every hour. */
export const PH_PROBE_DRIFT_PER_HOUR = 0.25;
/** The water level (%) a low-water run starts at: below the pump's interlock. */
export const LOW_WATER_LEVEL = 12;

export function isFault(name: string): name is Fault {
  return (FAULTS as readonly string[]).includes(name);
}

/** The tank as the faults make it. */
export function tankWithFaults(params: TankParams, faults: readonly Fault[]): TankParams {
  let tank = params;
  // The pump runs, but the bottle is empty: it pumps air.
  if (faults.includes('empty-acid')) tank = { ...tank, acidPhPerSecond: 0 };
  if (faults.includes('low-water')) tank = { ...tank, startWaterLevel: LOW_WATER_LEVEL };
  return tank;
}

/** What the probes say, as the faults make it, `time` seconds into the run. */
export function readingsWithFaults(readings: Readings, faults: readonly Fault[], time: number): Readings {
  let ph = readings.ph;
  if (faults.includes('drifting-ph')) ph = Math.round((ph + (PH_PROBE_DRIFT_PER_HOUR * time) / 3600) * 1000) / 1000;
  if (faults.includes('stuck-ph')) ph = STUCK_PH;
  return { ...readings, ph };
}

/**
 * The faults a run can have, as pure modifiers: of the tank's parameters (a tank low on water),
 * of what the probes say (a stuck or drifting pH probe), of what a pump run does (an empty bottle
 * pumps air, the wrong bottle raises the pH), or of the parts around the tank (a dead controller,
 * a service restart, a second controller: see the runners). A fault may start some time into the
 * run (`from`, seconds), after healthy hours the service learned from.
 */
import type { Readings, TankParams } from './tank.js';

export const FAULTS = [
  'stuck-ph',
  'drifting-ph',
  'empty-acid',
  'wrong-bottle',
  'low-water',
  'dead-controller',
  'restart',
  'two-controllers',
] as const;
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

/** The tank as the faults that hold from the start make it. */
export function tankWithFaults(params: TankParams, faults: readonly Fault[], from = 0): TankParams {
  let tank = params;
  // The pump runs, but the bottle is empty: it pumps air.
  if (faults.includes('empty-acid') && from <= 0) tank = { ...tank, acidPhPerSecond: 0 };
  if (faults.includes('low-water')) tank = { ...tank, startWaterLevel: LOW_WATER_LEVEL };
  return tank;
}

/** What a pump run puts into the tank `time` seconds into the run: acid, nothing (empty), or base (the wrong bottle). */
export function doseWithFaults(faults: readonly Fault[], time: number, from = 0): 'acid' | 'base' | null {
  if (time < from) return 'acid';
  if (faults.includes('empty-acid')) return null;
  if (faults.includes('wrong-bottle')) return 'base';
  return 'acid';
}

/** What the probes say, as the faults make it, `time` seconds into the run (faults start at `from`). */
export function readingsWithFaults(readings: Readings, faults: readonly Fault[], time: number, from = 0, stuckPh = STUCK_PH): Readings {
  if (time < from) return readings;
  let ph = readings.ph;
  if (faults.includes('drifting-ph')) ph = Math.round((ph + (PH_PROBE_DRIFT_PER_HOUR * (time - from)) / 3600) * 1000) / 1000;
  if (faults.includes('stuck-ph')) ph = stuckPh;
  return { ...readings, ph };
}

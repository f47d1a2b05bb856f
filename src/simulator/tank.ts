/**
 * The virtual grow tank: a pure, deterministic model. `advanceTank` takes a state to the state
 * `dt` seconds later; doses wait in a queue for the mixing delay before they act; `readTank`
 * adds bounded probe noise from the seeded random source held in the state.
 */
import { nextNoise, type RandomState } from './random.js';

/** `base`: the wrong bottle on the acid pump, raising the pH as much as acid would lower it. */
export type DoseKind = 'acid' | 'base' | 'nutrient';

export interface TankParams {
  startPh: number;
  /** Plants feeding push the pH up (nitrate uptake): pH units per hour. */
  phRisePerHour: number;
  /** The pH never leaves [phFloor, phCeiling] (the buffer of the water holds it there). */
  phFloor: number;
  phCeiling: number;
  /** EC in mS/cm, falling as plants take up nutrients. */
  startEc: number;
  ecFallPerHour: number;
  /** Water temperature over a day: mean ± swing, warmest at 15:00. */
  temperatureMean: number;
  temperatureSwing: number;
  /** The hour of the day the run starts at (0..24). */
  startHourOfDay: number;
  /** Water level in % of the tank, dropping as plants drink and water evaporates. */
  startWaterLevel: number;
  waterFallPerHour: number;
  /** How far one second of the acid pump lowers the pH, once mixed. */
  acidPhPerSecond: number;
  /** How far one second of the nutrient pump raises the EC, once mixed. */
  nutrientEcPerSecond: number;
  /** Seconds from a dose to its effect at the probe. */
  mixingDelaySeconds: number;
  /** Probe noise: each reading is the true value ± at most this much. */
  noise: Readings;
}

export interface Readings {
  ph: number;
  ec: number;
  temperature: number;
  water_level: number;
}

export interface PendingDose {
  kind: DoseKind;
  seconds: number;
  /** Seconds since the start at which the dose has mixed in. */
  actsAt: number;
}

export interface TankState {
  /** Seconds since the start of the run. */
  time: number;
  ph: number;
  ec: number;
  waterLevel: number;
  pending: PendingDose[];
  random: RandomState;
}

export const DEFAULT_TANK: TankParams = {
  startPh: 6.0,
  phRisePerHour: 0.12,
  phFloor: 3.0,
  phCeiling: 9.0,
  startEc: 1.8,
  ecFallPerHour: 0.01,
  temperatureMean: 21,
  temperatureSwing: 2.5,
  startHourOfDay: 6,
  startWaterLevel: 80,
  waterFallPerHour: 0.5,
  acidPhPerSecond: 0.05,
  nutrientEcPerSecond: 0.02,
  mixingDelaySeconds: 120,
  noise: { ph: 0.02, ec: 0.01, temperature: 0.1, water_level: 0.2 },
};

const HOUR = 3600;
const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

export function startTank(params: TankParams, seed: number): TankState {
  return { time: 0, ph: params.startPh, ec: params.startEc, waterLevel: params.startWaterLevel, pending: [], random: seed | 0 };
}

/** The true water temperature at a time: a sine over the day, warmest at 15:00. */
export function temperatureAt(params: TankParams, time: number): number {
  const hourOfDay = params.startHourOfDay + time / HOUR;
  return params.temperatureMean + params.temperatureSwing * Math.sin((2 * Math.PI * (hourOfDay - 9)) / 24);
}

/** A pump run: it acts `mixingDelaySeconds` from now. */
export function addDose(state: TankState, params: TankParams, kind: DoseKind, seconds: number): TankState {
  const dose: PendingDose = { kind, seconds, actsAt: state.time + params.mixingDelaySeconds };
  return { ...state, pending: [...state.pending, dose] };
}

/** The tank `dt` seconds later: drift over the interval, then every dose that has mixed in by then. */
export function advanceTank(state: TankState, params: TankParams, dt: number): TankState {
  if (!(dt >= 0)) throw new RangeError(`dt must be ≥ 0, got ${dt}`);
  const time = state.time + dt;
  let ph = state.ph + (params.phRisePerHour * dt) / HOUR;
  let ec = Math.max(0, state.ec - (params.ecFallPerHour * dt) / HOUR);
  const waterLevel = Math.max(0, state.waterLevel - (params.waterFallPerHour * dt) / HOUR);
  const pending: PendingDose[] = [];
  for (const dose of state.pending) {
    if (dose.actsAt > time) pending.push(dose);
    else if (dose.kind === 'acid') ph -= dose.seconds * params.acidPhPerSecond;
    else if (dose.kind === 'base') ph += dose.seconds * params.acidPhPerSecond;
    else ec += dose.seconds * params.nutrientEcPerSecond;
  }
  ph = clamp(ph, params.phFloor, params.phCeiling);
  return { time, ph, ec, waterLevel, pending, random: state.random };
}

/** The true values now (no noise). */
export function trueReadings(state: TankState, params: TankParams): Readings {
  return { ph: state.ph, ec: state.ec, temperature: temperatureAt(params, state.time), water_level: state.waterLevel };
}

/** What the probes say: the true values with bounded noise, and the state with the random source moved on. */
export function readTank(state: TankState, params: TankParams): { readings: Readings; state: TankState } {
  const truth = trueReadings(state, params);
  let random = state.random;
  const noisy = {} as Readings;
  for (const key of ['ph', 'ec', 'temperature', 'water_level'] as const) {
    const [noise, next] = nextNoise(random, params.noise[key]);
    random = next;
    noisy[key] = round(truth[key] + noise, 3);
  }
  noisy.ec = Math.max(0, noisy.ec);
  noisy.water_level = Math.max(0, noisy.water_level);
  return { readings: noisy, state: { ...state, random } };
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/**
 * One run of the tank against the service, on whatever clock the runner gives it: on each step
 * the model catches up with the clock, posts its readings when one is due, and the controller
 * polls when a poll is due. Live and fast runs differ only in the clock and the API under it.
 */
import { type Api, expectOk } from './api.js';
import { pumpController } from './controller.js';
import { doseWithFaults, readingsWithFaults, tankWithFaults } from './faults.js';
import { emptyLog, type RunLog } from './run-log.js';
import { PH_BAND, PUMP_FLOW_ML_PER_SECOND, type Scenario } from './scenarios.js';
import type { DeviceIds } from './setup.js';
import { addDose, advanceTank, DEFAULT_TANK, readTank, startTank, type Readings, type TankParams, type TankState } from './tank.js';

/** A dead controller polls for this long first (the pH is below the pump's condition then). */
export const CONTROLLER_DIES_AFTER_SECONDS = 600;
/**
 * The second of two controllers polls this long after the first, at the same interval: while the
 * first one's pump still runs (a run is 2 s), before its report, where only the claim stops a
 * second dose.
 */
export const SECOND_CONTROLLER_OFFSET_SECONDS = 1;

export interface SessionOptions {
  /** The API now (a restart swaps the app under it). */
  api: () => Api;
  ids: DeviceIds;
  scenario: Scenario;
  seed: number;
  /** The run's clock, epoch ms; the session starts at its reading when made. */
  now: () => number;
  readingEverySeconds: number;
  pollEverySeconds: number;
  /** Tank seconds per clock second (a live run sped up); 1 by default. */
  speed?: number;
  /** The tank's parameters over the scenario's (another tank size, another noise). */
  tank?: Partial<TankParams>;
  /** Told of each reading, run and change of decision. */
  note?: (line: string) => void;
}

export interface TankSession {
  /** Catches the tank up with the clock; posts and polls what is due. */
  step(): Promise<void>;
  readonly log: RunLog;
  readonly tank: TankState;
}

export function tankSession(options: SessionOptions): TankSession {
  const { ids, scenario, now } = options;
  const speed = options.speed ?? 1;
  const faultFrom = (scenario.faultAfterHours ?? 0) * 3600;
  const params = tankWithFaults({ ...DEFAULT_TANK, ...scenario.tank, ...options.tank }, scenario.faults, faultFrom);
  let nextTopUp = scenario.topUps ? scenario.topUps.everyHours * 3600 : Infinity;
  const startMs = now();
  const log = emptyLog(scenario.name, startMs, PH_BAND, PUMP_FLOW_ML_PER_SECOND);
  let tank = startTank(params, options.seed);
  let nextReadingAt = startMs;
  const two = scenario.faults.includes('two-controllers');
  const controllerFields = {
    api: options.api,
    actuatorId: ids.acid_pump,
    now,
    runPump: (seconds: number) => {
      const kind = doseWithFaults(scenario.faults, tank.time, faultFrom);
      if (kind !== null) tank = addDose(tank, params, kind, seconds);
    },
    log,
    diesAt: scenario.faults.includes('dead-controller') ? startMs + CONTROLLER_DIES_AFTER_SECONDS * 1000 : undefined,
    note: options.note,
  };
  // Two controllers on one pump each run it when told to and report once the run has ended.
  const controllers = two
    ? [1, 2].map((controller) => ({
        controller: pumpController({ ...controllerFields, controller, reportAfterRun: true }),
        nextPollAt: startMs + (controller - 1) * SECOND_CONTROLLER_OFFSET_SECONDS * 1000,
      }))
    : [{ controller: pumpController(controllerFields), nextPollAt: startMs }];

  async function postReadings(at: number): Promise<void> {
    const read = readTank(tank, params);
    tank = read.state;
    const probes = readingsWithFaults(read.readings, scenario.faults, tank.time, faultFrom, scenario.stuckPh);
    const timestamp = new Date(at).toISOString();
    const batch = (Object.keys(probes) as (keyof Readings)[]).map((type) => ({ sensor_id: ids[type], value: probes[type], timestamp }));
    await expectOk('post the readings', options.api()('POST', '/measurements', batch));
    log.samples.push({ at, truePh: tank.ph, probePh: probes.ph });
    options.note?.(describeReadings(at - startMs, probes, tank.ph));
  }

  return {
    log,
    get tank() {
      return tank;
    },
    async step() {
      const at = now();
      const tankTime = ((at - startMs) / 1000) * speed;
      if (tankTime > tank.time) tank = advanceTank(tank, params, tankTime - tank.time);
      // Fresh water topped up: the pH jumps toward the water's own.
      while (scenario.topUps && tank.time >= nextTopUp) {
        tank = { ...tank, ph: tank.ph + scenario.topUps.phRise };
        nextTopUp += scenario.topUps.everyHours * 3600;
      }
      if (at >= nextReadingAt) {
        await postReadings(at);
        while (nextReadingAt <= at) nextReadingAt += options.readingEverySeconds * 1000;
      }
      for (const each of controllers) {
        await each.controller.settle();
        if (at >= each.nextPollAt) {
          await each.controller.poll();
          while (each.nextPollAt <= at) each.nextPollAt += options.pollEverySeconds * 1000;
        }
      }
      log.endMs = at;
    },
  };
}

export function clockText(elapsedMs: number): string {
  const seconds = Math.floor(elapsedMs / 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${Math.floor(seconds / 3600)}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}`;
}

function describeReadings(elapsedMs: number, probes: Readings, truePh: number): string {
  return (
    `${clockText(elapsedMs)}  pH ${probes.ph.toFixed(2)} (true ${truePh.toFixed(2)})  EC ${probes.ec.toFixed(2)} mS/cm` +
    `  ${probes.temperature.toFixed(1)} °C  water ${probes.water_level.toFixed(1)} %`
  );
}

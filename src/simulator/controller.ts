/**
 * The pump controller, as a Raspberry Pi beside the tank runs it: poll the actuator's state;
 * when it says activate, run the pump (here: a dose into the model) and report the run. A dead
 * controller stops polling at `diesAt` and never runs the pump again. With `reportAfterRun` it
 * reports when the run has ended (its `settle` sends the report once the run's seconds are past),
 * so another controller can poll while the pump runs.
 */
import { type Api, expectOk } from './api.js';
import type { RunLog } from './run-log.js';

export interface ControllerDeps {
  api: () => Api;
  actuatorId: number;
  /** The clock, epoch ms. */
  now: () => number;
  /** Runs the pump for that many seconds. */
  runPump: (seconds: number) => void;
  log: RunLog;
  /** Epoch ms from which the controller is dead (polls nothing, runs nothing). */
  diesAt?: number;
  /** Told of each run and each change of the decision. */
  note?: (line: string) => void;
  /** Which controller this is, when more than one polls the pump (recorded with its runs). */
  controller?: number;
  /** Report the run once it has ended rather than at once. */
  reportAfterRun?: boolean;
}

export interface PumpController {
  /** One poll of the state, and a run when it says so. */
  poll(): Promise<void>;
  /** Sends the report of a run that has ended (with `reportAfterRun`). */
  settle(): Promise<void>;
  readonly dead: boolean;
}

export function pumpController(deps: ControllerDeps): PumpController {
  const { actuatorId, log } = deps;
  const note = deps.note ?? (() => {});
  const isDead = () => deps.diesAt !== undefined && deps.now() >= deps.diesAt;
  const who = deps.controller === undefined ? '' : ` (controller ${deps.controller})`;
  let reportAt: number | null = null;
  const report = async () => {
    await expectOk(`report the run of actuator ${actuatorId}`, deps.api()('PATCH', `/actuators/${actuatorId}/last_activated`));
  };
  return {
    get dead() {
      return isDead();
    },
    async settle() {
      if (reportAt === null || deps.now() < reportAt) return;
      reportAt = null;
      await report();
    },
    async poll() {
      if (isDead() || reportAt !== null) return;
      const api = deps.api();
      const state = await expectOk<{ activate: boolean; status: string; reason?: string; duration: number }>(
        `poll actuator ${actuatorId}`,
        api('GET', `/actuators/${actuatorId}/state`),
      );
      const at = deps.now();
      log.controllerLastSeenAt = at;
      const decision = { at, activate: state.activate === true, status: String(state.status), reason: state.reason ?? null };
      if (decision.reason === 'claimed') log.claimedAnswers += 1;
      const previous = log.decisions.at(-1);
      if (
        !previous ||
        previous.activate !== decision.activate ||
        previous.status !== decision.status ||
        previous.reason !== decision.reason
      ) {
        log.decisions.push(decision);
        note(`pump ${actuatorId}: ${decision.reason ?? decision.status}${decision.activate ? ' → activate' : ''}`);
      }
      if (!decision.activate) return;
      const seconds = Number(state.duration);
      deps.runPump(seconds);
      log.doses.push(deps.controller === undefined ? { at, seconds } : { at, seconds, controller: deps.controller });
      if (deps.reportAfterRun) reportAt = at + seconds * 1000;
      else await report();
      note(`pump ${actuatorId}: ran ${seconds} s${who}`);
    },
  };
}

/**
 * An actuator's usual dosing and how the last `usual_window` compares with it, read from its own
 * recorded doses (src/safety/usual.ts): what the hold on unusual consumption decides on and what
 * `GET /actuators/{id}/doses` shows.
 */
import { type DoseAmount, usage, type Usage } from '../safety/usual.js';
import type { Repositories, StoredActivation, StoredActuator } from '../store/index.js';

const DAY_MS = 24 * 3600 * 1000;

type UsageActuator = Pick<
  StoredActuator,
  'actuator_id' | 'flow_ml_per_s' | 'usual_days' | 'usual_window' | 'unusual_factor' | 'usual_since'
>;

/** The unit the usual amount is counted in: millilitres with a flow, else seconds of run. */
export const usageUnit = (actuator: Pick<StoredActuator, 'flow_ml_per_s'>): 'ml' | 's' => (actuator.flow_ml_per_s === null ? 's' : 'ml');

/** A dose's amount in the actuator's unit. */
export function doseAmount(dose: Pick<StoredActivation, 'activated_at' | 'duration' | 'volume_ml'>, flow: number | null): DoseAmount {
  const amount = flow === null ? dose.duration : (dose.volume_ml ?? dose.duration * flow);
  return { activated_at: dose.activated_at, amount };
}

export async function actuatorUsage(repos: Pick<Repositories, 'activations'>, actuator: UsageActuator, now: number): Promise<Usage> {
  const doses = await repos.activations.since(actuator.actuator_id, now - actuator.usual_days * DAY_MS);
  return usage(
    doses.map((dose) => doseAmount(dose, actuator.flow_ml_per_s)),
    now,
    { usual_days: actuator.usual_days, usual_window: actuator.usual_window, unusual_factor: actuator.unusual_factor },
    actuator.usual_since,
  );
}

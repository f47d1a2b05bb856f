/**
 * Keeps an actuator's learned gain (gain.ts) current as its doses are judged: the judging calls
 * `learnAfterJudging` inside its transaction once it has stored its verdicts. The move of each
 * answered dose is stored with it (`moved`), and the gain made of the newest ones is kept on the
 * actuator, which the decision reads from memory like its other settings.
 */
import type { Repositories, StoredActuator } from '../store/index.js';
import { GAIN_WINDOW, learnedGain } from './gain.js';

/** The value a dose corrects toward: the set point when the actuator has one, else its threshold. */
export const judgingTarget = (actuator: Pick<StoredActuator, 'setpoint' | 'condition_value'>) =>
  actuator.setpoint ?? actuator.condition_value;

/** +1 when a dose should raise the reading, -1 lower it, null neither (as the judging reads it). */
function correctiveDirection(condition: string, before: number, target: number): 1 | -1 | null {
  if (condition === 'high') return -1;
  if (condition === 'low') return 1;
  if (condition === 'low_or_high') return before > target ? -1 : before < target ? 1 : null;
  return null;
}

/** How far the reading moved from `before` to `after` in the direction the actuator corrects (null: no direction). */
export function correctiveMove(actuator: StoredActuator, before: number, after: number): number | null {
  const direction = correctiveDirection(actuator.activation_condition, before, judgingTarget(actuator));
  if (direction === null || !Number.isFinite(after)) return null;
  return direction * (after - before);
}

/** Works the gain out again from the stored moves; answers the actuator when the gain changed. */
export async function learnAfterJudging(tx: Repositories, actuator: StoredActuator): Promise<StoredActuator | undefined> {
  const gain = learnedGain(await tx.activations.answeredMoves(actuator.actuator_id, GAIN_WINDOW));
  if (gain === actuator.learned_gain) return undefined;
  return tx.actuators.setLearnedGain(actuator.actuator_id, gain);
}

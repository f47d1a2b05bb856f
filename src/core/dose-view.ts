import type { ActivationRecord } from '../domain/actuator.js';
import type { StoredActivation } from '../store/index.js';
import { finiteOrNull } from './finite.js';

/**
 * A dose as the API answers it (docs/api.md §14, §15), the same in `GET /actuators/{id}/activations`,
 * the `dose` event and the MQTT doses topic: its time as ISO text, its volume (null without a
 * flow then, or when the store holds a volume that is not a finite number).
 */
export const doseView = (dose: StoredActivation): ActivationRecord => ({
  activation_id: dose.activation_id,
  actuator_id: dose.actuator_id,
  activated_at: new Date(dose.activated_at).toISOString(),
  duration: dose.duration,
  value_before: finiteOrNull(dose.value_before),
  answered: dose.answered,
  response: dose.response ?? null,
  reversed: dose.reversed ?? null,
  volume_ml: finiteOrNull(dose.volume_ml),
  reported: dose.reported,
  manual: dose.manual,
});

import type { ActuatorService } from '../actuators/service.js';
import type { MeasurementService } from '../measurements/service.js';

/** The services the bridge writes through: the same as `POST /measurements` and `PATCH …/last_activated`. */
export interface MqttServices {
  measurements: Pick<MeasurementService, 'record'>;
  actuators: Pick<ActuatorService, 'markActivated' | 'decision'>;
}

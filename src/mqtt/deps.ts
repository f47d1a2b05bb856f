import type { ActuatorService } from '../actuators/service.js';
import type { MeasurementService } from '../measurements/service.js';
import type { ClaimService } from '../claims/index.js';

/** The services the bridge writes through: the same as `POST /measurements` and `PATCH …/last_activated`. */
export interface MqttServices {
  measurements: Pick<MeasurementService, 'record'>;
  actuators: Pick<ActuatorService, 'markActivated' | 'decision'>;
  /** The state topic of an actuator whose controller follows MQTT tells it to run only for a claimed dose. */
  claims: Pick<ClaimService, 'settle'>;
}

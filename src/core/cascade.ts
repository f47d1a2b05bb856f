import type { ChangeBus } from './bus.js';
import type { Removal } from '../store/index.js';

/**
 * Tells of what a committed sensor or prototype delete took with it, as if each had been deleted
 * on its own: the actuators it disabled (an interlock sensor of theirs went), every actuator
 * deleted (while its sensor is still known to the listeners, which place it by that sensor),
 * then every sensor.
 */
export function publishRemoved(bus: ChangeBus, removed: Extract<Removal, { status: 'removed' }>): void {
  for (const actuator of removed.disabled) bus.publish('actuator', { action: 'updated', actuator });
  for (const actuatorId of removed.actuatorIds) bus.publish('actuator', { action: 'deleted', actuatorId });
  for (const sensorId of removed.sensorIds) bus.publish('sensor', { action: 'deleted', sensorId });
}

import type { ChangeBus } from '../events/bus.js';
import type { Removal } from '../store/repositories/removals.js';

/**
 * Tells of what a committed sensor or prototype delete took with it, as if each had been deleted
 * on its own: every actuator first (while its sensor is still known to the listeners, which place
 * it by that sensor), then every sensor.
 */
export function publishRemoved(bus: ChangeBus, removed: Extract<Removal, { status: 'removed' }>): void {
  for (const actuatorId of removed.actuatorIds) bus.publish('actuator', { action: 'deleted', actuatorId });
  for (const sensorId of removed.sensorIds) bus.publish('sensor', { action: 'deleted', sensorId });
}

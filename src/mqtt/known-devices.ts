import type { PrototypeBase as Prototype } from '../domain/prototype.js';
import type { Sensor } from '../domain/sensor.js';
import type { StoredActuator } from '../store/index.js';
import { actuatorConfig, actuatorConfigTopic, type DiscoveryContext, sensorConfig, sensorConfigTopic } from './discovery.js';
import type { LastValues } from './last-values.js';
import type { Publications } from './publications.js';
import type { Topics } from './topics.js';

export interface KnownDevicesDeps {
  out: Pick<Publications, 'send' | 'clear'>;
  topics: Pick<Topics, 'state'>;
  /** Home Assistant discovery, when on. */
  discovery: DiscoveryContext | undefined;
  last: Pick<LastValues, 'forget'>;
}

/**
 * The sensors, actuators and prototypes known here, with their Home Assistant discovery configs
 * (a device per prototype): published as they change, emptied when they are deleted.
 */
export function knownDevices({ out, topics, discovery, last }: KnownDevicesDeps) {
  const sensors = new Map<number, Sensor>();
  const actuators = new Map<number, StoredActuator>();
  const prototypes = new Map<number, Prototype>();

  function publishSensorConfig(sensor: Sensor): void {
    if (!discovery) return;
    const { topic, payload } = sensorConfig(discovery, sensor, prototypes.get(sensor.prototype_id));
    out.send('discovery', topic, payload, 1, true);
  }

  function publishActuatorConfig(actuator: StoredActuator): void {
    const sensor = sensors.get(actuator.sensor_id);
    if (!discovery || !sensor) return;
    const { topic, payload } = actuatorConfig(discovery, actuator, sensor.prototype_id, prototypes.get(sensor.prototype_id));
    out.send('discovery', topic, payload, 1, true);
  }

  /** The configs of a sensor's actuators (their device is the sensor's prototype). */
  function publishActuatorsOf(sensorId: number): void {
    for (const actuator of actuators.values()) if (actuator.sensor_id === sensorId) publishActuatorConfig(actuator);
  }

  function forgetActuator(actuatorId: number): void {
    actuators.delete(actuatorId);
    out.clear('state', topics.state(actuatorId));
    if (discovery) out.clear('discovery', actuatorConfigTopic(discovery, actuatorId));
  }

  function forgetSensor(sensorId: number): void {
    sensors.delete(sensorId);
    last.forget(sensorId);
    if (discovery) out.clear('discovery', sensorConfigTopic(discovery, sensorId));
    // Its actuators went with it.
    for (const actuator of [...actuators.values()]) if (actuator.sensor_id === sensorId) forgetActuator(actuator.actuator_id);
  }

  /** A sensor created, changed, or read at a (re)connection. */
  function knowSensor(sensor: Sensor): void {
    sensors.set(sensor.sensor_id, sensor);
    publishSensorConfig(sensor);
  }

  return {
    forgetSensor,
    forgetActuator,
    sensor: knowSensor,

    /** A sensor created or changed: moved to another prototype, its actuators' device moves too. */
    sensorChanged(sensor: Sensor): void {
      knowSensor(sensor);
      publishActuatorsOf(sensor.sensor_id);
    },

    /** An actuator created, changed or activated, or read at a (re)connection. */
    actuator(actuator: StoredActuator, activated = false): void {
      const before = actuators.get(actuator.actuator_id);
      actuators.set(actuator.actuator_id, actuator);
      // A run changes nothing Home Assistant shows of the actuator itself (its decision follows on `decision`).
      if (!activated || !before) publishActuatorConfig(actuator);
    },

    prototype(prototype: Prototype): void {
      prototypes.set(prototype.prototype_id, prototype);
    },

    forgetPrototype(prototypeId: number): void {
      prototypes.delete(prototypeId);
    },

    /** Renamed: the Home Assistant device of its sensors and actuators carries the name. */
    prototypeRenamed(prototype: Prototype): void {
      prototypes.set(prototype.prototype_id, prototype);
      for (const sensor of sensors.values()) {
        if (sensor.prototype_id !== prototype.prototype_id) continue;
        publishSensorConfig(sensor);
        publishActuatorsOf(sensor.sensor_id);
      }
    },
  };
}

/**
 * Home Assistant MQTT discovery (§12): the retained config messages that make every sensor and
 * each actuator's decision appear in Home Assistant without configuration. Pure: no I/O.
 * https://www.home-assistant.io/integrations/mqtt/#mqtt-discovery
 */
import type { PrototypeBase as Prototype } from '../domain/prototype.js';
import type { Sensor, SensorType } from '../domain/sensor.js';
import type { StoredActuator } from '../store/index.js';
import type { Topics } from './topics.js';

/** Home Assistant's node and object ids allow letters, digits, `_` and `-` only. */
export const nodeIdOf = (prefix: string) => prefix.replace(/[^a-zA-Z0-9_-]/g, '_');

export interface DiscoveryContext {
  discoveryPrefix: string;
  /** The service's topic prefix: the unique ids derive from it, so two deployments on one broker do not collide. */
  prefix: string;
  topics: Topics;
}

export interface DiscoveryMessage {
  topic: string;
  /** The JSON config; empty removes the entity. */
  payload: string;
}

/** A device class and the unit Home Assistant accepts with it, when the sensor's unit is one of them. */
interface Classified {
  device_class?: string;
  unit_of_measurement?: string;
}

const TEMPERATURE_UNITS: Record<string, string> = {
  c: '°C',
  '°c': '°C',
  celsius: '°C',
  degc: '°C',
  f: '°F',
  '°f': '°F',
  fahrenheit: '°F',
  k: 'K',
  kelvin: 'K',
};
const CONDUCTIVITY_UNITS: Record<string, string> = { 'ms/cm': 'mS/cm', 'µs/cm': 'µS/cm', 'us/cm': 'µS/cm' };
const DISTANCE_UNITS: Record<string, string> = { mm: 'mm', cm: 'cm', m: 'm', in: 'in', ft: 'ft' };

/**
 * The device class Home Assistant has for the sensor type, with the unit spelled as it requires;
 * a unit it would refuse for that class keeps the unit and drops the class, so the entity still
 * appears (Home Assistant rejects a config whose unit does not fit its class).
 */
export function classify(type: SensorType, unit: string): Classified {
  const key = unit.trim().toLowerCase();
  const asIs = { unit_of_measurement: unit };
  switch (type) {
    case 'temperature':
      return TEMPERATURE_UNITS[key] ? { device_class: 'temperature', unit_of_measurement: TEMPERATURE_UNITS[key] } : asIs;
    case 'humidity':
      return key === '%' ? { device_class: 'humidity', unit_of_measurement: '%' } : asIs;
    case 'ph':
      // Home Assistant's pH class is unitless.
      return { device_class: 'ph' };
    case 'ec':
      return CONDUCTIVITY_UNITS[key] ? { device_class: 'conductivity', unit_of_measurement: CONDUCTIVITY_UNITS[key] } : asIs;
    case 'water_level':
      return DISTANCE_UNITS[key] ? { device_class: 'distance', unit_of_measurement: DISTANCE_UNITS[key] } : asIs;
    default:
      return asIs;
  }
}

function device(context: DiscoveryContext, prototypeId: number, prototype: Prototype | undefined) {
  return {
    identifiers: [`${nodeIdOf(context.prefix)}_prototype_${prototypeId}`],
    name: prototype?.prototype_name ?? `Prototype ${prototypeId}`,
    manufacturer: 'sensorhub',
    model: 'prototype',
  };
}

export function sensorConfigTopic(context: DiscoveryContext, sensorId: number): string {
  return `${context.discoveryPrefix}/sensor/${nodeIdOf(context.prefix)}/sensor_${sensorId}/config`;
}

export function actuatorConfigTopic(context: DiscoveryContext, actuatorId: number): string {
  return `${context.discoveryPrefix}/binary_sensor/${nodeIdOf(context.prefix)}/actuator_${actuatorId}/config`;
}

/** A sensor as a Home Assistant sensor entity reading `<prefix>/sensors/<id>/last`. */
export function sensorConfig(context: DiscoveryContext, sensor: Sensor, prototype: Prototype | undefined): DiscoveryMessage {
  const uniqueId = `${nodeIdOf(context.prefix)}_sensor_${sensor.sensor_id}`;
  const config = {
    name: sensor.sensor_name ?? `Sensor ${sensor.sensor_id} (${sensor.sensor_type.replace(/_/g, ' ')})`,
    unique_id: uniqueId,
    object_id: uniqueId,
    state_topic: context.topics.last(sensor.sensor_id),
    value_template: '{{ value_json.value }}',
    json_attributes_topic: context.topics.last(sensor.sensor_id),
    json_attributes_template: '{{ {"timestamp": value_json.timestamp, "measurement_id": value_json.measurement_id} | tojson }}',
    state_class: 'measurement',
    ...classify(sensor.sensor_type, sensor.sensor_unit),
    device: device(context, sensor.prototype_id, prototype),
  };
  return { topic: sensorConfigTopic(context, sensor.sensor_id), payload: JSON.stringify(config) };
}

/** An actuator's decision (§3.3) as a Home Assistant binary sensor: on when the pump should run. */
export function actuatorConfig(
  context: DiscoveryContext,
  actuator: StoredActuator,
  prototypeId: number,
  prototype: Prototype | undefined,
): DiscoveryMessage {
  const uniqueId = `${nodeIdOf(context.prefix)}_actuator_${actuator.actuator_id}`;
  const config = {
    name: actuator.actuator_name ?? `${actuator.actuator_type.replace(/_/g, ' ')} ${actuator.actuator_id}`,
    unique_id: uniqueId,
    object_id: uniqueId,
    state_topic: context.topics.state(actuator.actuator_id),
    value_template: "{{ 'ON' if value_json.activate else 'OFF' }}",
    json_attributes_topic: context.topics.state(actuator.actuator_id),
    device_class: 'running',
    device: device(context, prototypeId, prototype),
  };
  return { topic: actuatorConfigTopic(context, actuator.actuator_id), payload: JSON.stringify(config) };
}

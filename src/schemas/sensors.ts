import { type Static, Type } from '@sinclair/typebox';
import { Id, StringEnum } from './common.js';

export const SENSOR_TYPES = ['temperature', 'humidity', 'ec', 'ph', 'water_level', 'boolean_water_level', 'oxygen'] as const;
export const SensorType = StringEnum(SENSOR_TYPES);
export type SensorType = Static<typeof SensorType>;

const sensorFields = {
  sensor_type: SensorType,
  prototype_id: Id('The prototype the sensor belongs to; it must exist.'),
  sensor_unit: Type.String({ minLength: 1, maxLength: 32, examples: ['pH', 'mS/cm', 'Celsius'] }),
  threshold_critically_low: Type.Number(),
  threshold_low: Type.Number(),
  threshold_high: Type.Number(),
  threshold_critically_high: Type.Number(),
};

export const SensorBase = Type.Object(sensorFields, {
  title: 'SensorBase',
  description: 'Thresholds must satisfy critically_low ≤ low ≤ high ≤ critically_high.',
});
export type SensorBase = Static<typeof SensorBase>;

export const Sensor = Type.Object({ ...sensorFields, sensor_id: Id('Assigned by the service.') }, { title: 'Sensor' });
export type Sensor = Static<typeof Sensor>;

export const SensorPatch = Type.Object(
  { sensor_id: Id(), ...Type.Partial(Type.Object(sensorFields)).properties },
  {
    title: 'SensorPatch',
    description: 'A sensor_id and any subset of the SensorBase fields; the others keep their value.',
  },
);
export type SensorPatch = Static<typeof SensorPatch>;

import type { ActivationCondition, Actuator, ActuatorType, Sensor, SensorType } from '../api/types';

export const SENSOR_TYPE_LABELS: Record<SensorType, string> = {
  temperature: 'Temperature',
  humidity: 'Humidity',
  ec: 'EC',
  ph: 'pH',
  water_level: 'Water level',
  boolean_water_level: 'Water level switch',
  oxygen: 'Oxygen',
};

export const ACTUATOR_TYPE_LABELS: Record<ActuatorType, string> = {
  acid_pump: 'Acid pump',
  base_pump: 'Base pump',
  nutrients_A_pump: 'Nutrients A pump',
  nutrients_B_pump: 'Nutrients B pump',
  light: 'Light',
  irrigation_pump: 'Irrigation pump',
  valve: 'Valve',
  fan: 'Fan',
  heater: 'Heater',
};

/** The types the actuator form can set up today: the dosing pumps (timed outputs need a schedule editor). */
export const FORM_ACTUATOR_TYPES: readonly ActuatorType[] = ['acid_pump', 'base_pump', 'nutrients_A_pump', 'nutrients_B_pump'];

export const CONDITION_LABELS: Record<ActivationCondition, string> = {
  high: 'value above',
  low: 'value below',
  // The rule runs when the value is below or above the condition value (docs/api.md §3.3).
  low_or_high: 'value below or above',
  always: 'always',
  schedule: 'on its schedule',
};

/** The grower's name for the sensor (§5 `sensor_name`, on services that have it), else "pH #4". */
export const sensorName = (sensor: Pick<Sensor, 'sensor_id' | 'sensor_type'> & Partial<Pick<Sensor, 'sensor_name'>>) =>
  sensor.sensor_name || `${SENSOR_TYPE_LABELS[sensor.sensor_type]} #${sensor.sensor_id}`;

export const actuatorName = (actuator: Actuator) =>
  actuator.actuator_name || `${ACTUATOR_TYPE_LABELS[actuator.actuator_type]} #${actuator.actuator_id}`;

/** A pH sensor on the default prototype, with thresholds 0 ≤ 5 ≤ 7 ≤ 14: what most API tests post. */
export const phSensorBody = {
  sensor_type: 'ph',
  prototype_id: 0,
  sensor_unit: 'pH',
  threshold_critically_low: 0,
  threshold_low: 5,
  threshold_high: 7,
  threshold_critically_high: 14,
};

/** A temperature sensor on the default prototype, with thresholds 10 ≤ 20 ≤ 30 ≤ 40: what the alert tests post. */
export const temperatureSensorBody = {
  sensor_type: 'temperature' as const,
  prototype_id: 0,
  sensor_unit: 'Celsius',
  threshold_critically_low: 10,
  threshold_low: 20,
  threshold_high: 30,
  threshold_critically_high: 40,
};

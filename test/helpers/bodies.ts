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

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

/** A base pump that runs when its sensor reads below 5.5, at most every 60 s for 3 s. */
export const basePumpBody = (sensor_id: number) => ({
  actuator_type: 'base_pump',
  sensor_id,
  condition_value: 5.5,
  activation_condition: 'low',
  activation_period: 60,
  activation_duration: 3,
});

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

/** The dosing safety and volume columns of a stored actuator as a new one has them (docs/api.md §14, §15): for fixtures built by hand. */
export const storedActuatorSafety = {
  max_doses_per_hour: null,
  max_seconds_per_day: null,
  min_response: null,
  response_delay: null,
  lockout_after: 20,
  controller_timeout: null,
  lockout_reversed_after: 3,
  usual_days: 7,
  usual_window: 21600,
  unusual_factor: 2,
  flow_ml_per_s: null,
  max_ml_per_day: null,
  stock_ml: null,
  stock_low_ml: null,
  lockout_since: null,
  lockout_reason: null,
  lockout_kind: null,
  usual_since: null,
  unanswered_streak: 0,
  last_polled: null,
  // Dosing that aims: no set point, fixed doses, not sequenced, no schedule.
  setpoint: null,
  band: 0,
  dose_mode: 'fixed' as const,
  dose_fraction: 0.8,
  min_duration: 1,
  max_duration: null,
  initial_gain: null,
  dose_order: null,
  schedule: null,
  learned_gain: null,
  controller: 'http' as const,
  claim_until: null,
  claim_activation_id: null,
  manual_run_seconds: null,
};

/** A sensor's trust settings (docs/api.md §14), name (§5) and calibration reminder (§15) as a new one has them: for fixtures built by hand. */
export const sensorTrustDefaults = {
  sensor_name: null,
  valid_min: null,
  valid_max: null,
  stale_after: null,
  stuck_after: null,
  calibration_interval: null,
  calibrated_at: null,
  calibration_due: null,
};

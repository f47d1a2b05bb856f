import { doc } from '../http/route-doc.js';

const SENSORS = 'Sensors';

export const sensorDocs = {
  post: doc(
    SENSORS,
    'Post Sensor',
    'postSensor',
    'Registers a sensor on an existing prototype. 404 when the prototype does not exist. valid_min, valid_max, ' +
      'stale_after and stuck_after are optional (null: the type’s valid range, STALE_AFTER, stuck detection off); 422 ' +
      'when valid_min > valid_max or a time in seconds is negative. calibration_interval (days, more than 0 and at most ' +
      '3650; null: no reminder) sets the calibration reminder: calibration_due is calibrated_at + the interval, or, for a ' +
      'sensor never calibrated, the moment the interval was set (due at once); calibrated_at and calibration_due are ' +
      'the service’s own (see POST /sensors/{sensor_id}/calibrations).',
  ),
  byPrototype: doc(SENSORS, 'Sensors', 'sensors', "The prototype's sensors, by sensor_id. 404 when the prototype does not exist."),
  patch: doc(
    SENSORS,
    'Update Sensors',
    'updateSensors',
    'Partial bulk update: each element names a sensor_id and the fields to change. ' +
      'Thresholds and valid_min ≤ valid_max are checked on the merged result. All or nothing: one bad element and ' +
      'nothing is written. A changed calibration_interval moves calibration_due (calibrated_at + the interval; never ' +
      'calibrated: due from the moment an interval was set) and raises or clears the calibration_due alert to match.',
  ),
  remove: doc(
    SENSORS,
    'Delete Sensor',
    'deleteSensor',
    'Deletes the sensor. 204 without a body; 404 when it does not exist. While it has measurements or actuators, or ' +
      'actuators use it as an interlock: 409 with a detail that counts them, and the counts as data in `dependents` ' +
      '(`sensors` is 0; `actuators` counts both kinds), unless cascade=true, which deletes them with it in one ' +
      'transaction: the actuators it drives are deleted, the interlock entries naming it are removed and the actuators ' +
      'that had them are disabled (enabled false), so no pump keeps running without its interlock.',
  ),
};

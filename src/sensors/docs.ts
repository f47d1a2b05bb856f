import { doc } from '../http/route-doc.js';

const SENSORS = 'Sensors';

export const sensorDocs = {
  post: doc(
    SENSORS,
    'Post Sensor',
    'postSensor',
    'Registers a sensor on an existing prototype. 404 when the prototype does not exist. valid_min, valid_max, ' +
      'stale_after and stuck_after are optional (null: the type’s valid range, STALE_AFTER, stuck detection off); 422 ' +
      'when valid_min > valid_max or a time in seconds is negative.',
  ),
  byPrototype: doc(SENSORS, 'Sensors', 'sensors', "The prototype's sensors, by sensor_id. 404 when the prototype does not exist."),
  patch: doc(
    SENSORS,
    'Update Sensors',
    'updateSensors',
    'Partial bulk update: each element names a sensor_id and the fields to change. ' +
      'Thresholds and valid_min ≤ valid_max are checked on the merged result. All or nothing: one bad element and ' +
      'nothing is written.',
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

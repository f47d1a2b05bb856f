import { doc } from '../http/route-doc.js';

const ALERTS = 'Alerts';

const PROTOTYPES = 'Prototypes';

export const alertDocs = {
  list: doc(
    ALERTS,
    'Alerts',
    'alerts',
    'Alerts newest first (by alert_id). state: active (default), cleared or all; filters prototype_id and sensor_id ' +
      '(an unknown id selects nothing); limit 1 to 1000 (default 100); before: only alerts with a lower alert_id, for ' +
      'the next page. A sensor leaving ok raises one alert of its kind (low or high; critical for the critical levels), ' +
      'and it clears once the sensor has stayed ok for ALERT_CLEAR_AFTER. Its severity changes on the same alert (the ' +
      'escalated event, either way) with the same hysteresis: to critical at once when a critical level is reached; ' +
      'back to warning only once the sensor has stayed short of the critical threshold (at warning or ok) for ' +
      'ALERT_CLEAR_AFTER, any critical value in between starting the wait over, so a value wavering across a critical ' +
      'threshold gives at most one escalation and no de-escalation; when the clear falls due as well (straight from ' +
      'critical to ok), the alert just clears. A sensor crossing straight to the other side clears the ' +
      'alert of the side it left at once. A stale alert is raised at the instant the newest measurement becomes older ' +
      'than STALE_AFTER and clears with the next measurement. value is the value that raised the alert (null for ' +
      'stale), last_value the newest value while it was active, peak the furthest value beyond its threshold (the ' +
      'newest value of each committed batch counts). Deleting a sensor deletes its alerts.',
  ),
  get: doc(ALERTS, 'Alert', 'alert', 'One alert, active or cleared. 404 when there is no such alert.'),
  acknowledge: doc(
    ALERTS,
    'Acknowledge Alert',
    'acknowledgeAlert',
    'Records that someone has seen the alert: acknowledged_at, and acknowledged_by the username of the token ' +
      '(null in AUTH_MODE=open). The first acknowledgement is kept: acknowledging again answers the alert unchanged. ' +
      'A cleared alert can be acknowledged too. Sends the acknowledged event (event stream, webhooks). It takes no ' +
      'body: send none, or any JSON (ignored). ' +
      'Needs the modify permission in AUTH_MODE=enforced. 404 when there is no such alert.',
  ),
  status: doc(
    PROTOTYPES,
    'Prototype Status',
    'prototypeStatus',
    'Everything an overview page needs in one request: the prototype; per sensor (by sensor_id) its level now ' +
      '(critically_low, low, ok, high, critically_high by its thresholds, a value equal to a threshold not beyond it; ' +
      'stale when the newest measurement is older than STALE_AFTER; null while it has none), its newest measurement ' +
      '(or null) and its active alerts; per actuator (by actuator_id) its decision as GET /actuators/{actuator_id}/state ' +
      'answers it. 404 when the prototype does not exist.',
  ),
};

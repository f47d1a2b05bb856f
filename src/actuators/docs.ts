import { doc } from '../http/route-doc.js';

const ACTUATORS = 'Actuators';

export const actuatorDocs = {
  post: doc(
    ACTUATORS,
    'Post Actuator',
    'postActuator',
    'Registers a pump on an existing sensor. last_activated starts at the creation time. The dosing safety settings ' +
      '(max_doses_per_hour, max_seconds_per_day, min_response, response_delay, lockout_after, lockout_reversed_after, ' +
      'usual_days, usual_window, unusual_factor, controller_timeout, interlocks) and the volumes (flow_ml_per_s, ' +
      'max_ml_per_day, stock_ml, stock_low_ml) are optional: left out, no limits, doses judged against the probe’s own ' +
      'noise (min_response null), lockout after 20 unanswered doses or 3 reversed ones, held above 2× the usual dosing ' +
      'of a 6 h window learned over 7 days, no flow, stock not tracked. 422 when max_doses_per_hour or lockout_after is ' +
      'not an integer ≥ 1, lockout_reversed_after not an integer 1..1000, usual_days not an integer 3..365, ' +
      'usual_window not 60..86400 s, unusual_factor not > 1 and ≤ 1000, a time in seconds is negative, there are more than 8 ' +
      'interlocks, or an interlock has no bound or block_below > block_above; when flow_ml_per_s or max_ml_per_day is ' +
      'not > 0, stock_ml or stock_low_ml is negative, or max_ml_per_day or stock_ml is set without flow_ml_per_s (only ' +
      'a flow turns run time into millilitres); 404 when the sensor or an interlock sensor does not exist. lockout and ' +
      'last_polled are read-only.',
  ),
  patch: doc(
    ACTUATORS,
    'Update Actuators',
    'updateActuators',
    'Partial bulk update, all or nothing. Each element names an actuator_id and the fields to change; the whole objects ' +
      'the dashboard sends back are accepted (last_activated, lockout and last_polled are ignored). The safety rules of ' +
      'POST /actuators are checked on the merged result; interlocks named in a patch replace all of the actuator’s ' +
      'interlocks. A stock_ml sent here sets the bottle’s count as it is (a correction); POST /actuators/{id}/refill ' +
      'records a refill. A flow changed here applies to the doses recorded from then on: those recorded before keep ' +
      'their volume.',
  ),
  state: doc(
    ACTUATORS,
    'Get Actuator State',
    'getActuatorState',
    'Whether the pump should run now. The first rule that matches decides (status says which): disabled; no measurement; ' +
      'newest measurement older than STALE_AFTER; less than activation_period seconds since last_activated; duration 0; ' +
      'otherwise "OK" and the condition on the newest value (high: v > condition_value; low: v < condition_value; ' +
      'low_or_high: v ≠ condition_value; always). The newest measurement is the one with the latest timestamp, not the ' +
      'last one posted. Boundaries: a reading exactly STALE_AFTER old is still fresh; a period exactly elapsed allows ' +
      'activation; a value equal to condition_value does not activate high, low or low_or_high. A last_activated in the ' +
      'future (server clock set back) keeps the pump waiting. Sent with Cache-Control: no-store.',
  ),
  lastActivated: doc(
    ACTUATORS,
    'Update Actuator Last Activated',
    'updateActuatorLastActivated',
    'Sets last_activated to now and records a dose (see GET /actuators/{actuator_id}/activations) in the same ' +
      'transaction, where the dose’s volume is also taken from stock_ml (never below 0) when the bottle is tracked; ' +
      'the controller calls it right after the pump ran. The route takes no body: ' +
      'whatever is sent (nothing, an empty form, empty or even malformed JSON, any content type) is ignored, ' +
      'because refusing the report would make the next state poll answer activate: true again.',
  ),
  byPrototype: doc(ACTUATORS, 'Actuator', 'actuator', "The prototype's actuators (those whose sensor belongs to it), by actuator_id."),
  remove: doc(
    ACTUATORS,
    'Delete Actuator',
    'deleteActuator',
    'Deletes the actuator. 204 without a body; 404 when it does not exist. Its controller then gets 404 for its state.',
  ),
  activations: doc(
    ACTUATORS,
    'Actuator Activations',
    'actuatorActivations',
    'The doses recorded for the actuator, newest first: one per reported run (PATCH …/last_activated or the MQTT ' +
      '`…/activated` topic), with duration = its activation_duration then, value_before = the newest reading of its ' +
      'sensor then (null when it had none), answered true / false / null (not judged yet, or never judged), volume_ml = ' +
      'duration × the flow_ml_per_s then (null without a flow; a later flow change leaves it as it was). Query: ' +
      'start_time, end_time ([start, end)), limit (1 to 1000, default 100), before (an activation_id: only older doses, ' +
      'for paging). 404 when the actuator does not exist; 422 for a bad query. Deleting the actuator deletes its doses.',
  ),
  unlock: doc(
    ACTUATORS,
    'Unlock Actuator',
    'unlockActuator',
    'Ends a lockout or a hold on unusual consumption (unanswered, reversed or unusually many doses hold an actuator ' +
      'until someone calls this). Clears `lockout` and the count of unanswered doses (after an unusual hold, the usual ' +
      'dosing is learned afresh from now), clears the alert, and answers the actuator; the lockout and the unlock (with the user ' +
      'in enforced mode) are recorded in its prototype’s journal. 409 when it is not locked out; 404 when it does not ' +
      'exist. Needs the modify permission in enforced mode.',
  ),
};

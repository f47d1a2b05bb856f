import { doc } from '../http/route-doc.js';

const ACTUATORS = 'Actuators';

export const doseDocs = {
  totals: doc(
    ACTUATORS,
    'Actuator Dose Totals',
    'actuatorDoseTotals',
    'What the actuator’s doses came to per bucket, ascending: `doses`, `seconds` of run and `volume_ml`, so “how much acid ' +
      'went in this week” is one request. `bucket` is 1h or 1d (default; PT1H, P1D, 3600 and 86400 are read the same), ' +
      'anything else 422. The window is that of GET /measurements/{sensor_id}: time_delta, start_time, end_time. Buckets ' +
      'are aligned in UTC (hours on the hour, days at UTC midnight) and answered whole: a bucket that overlaps the window ' +
      'counts every dose it holds, and its start and end say which. Buckets without doses are left out. `volume_ml` adds ' +
      'the volumes the doses were recorded with (duration × the flow_ml_per_s of the moment); doses recorded without a ' +
      'flow add nothing to it, and a bucket where none has a volume answers null. 404 when the actuator does not exist.',
  ),
  refill: doc(
    ACTUATORS,
    'Refill Actuator',
    'refillActuator',
    'Records that the pump’s bottle was refilled: `stock_ml` becomes the amount sent (what the bottle holds now, not an ' +
      'amount added), and the refill is kept with its time and, in enforced mode, the user. The bottle’s decision is no ' +
      'longer `empty` once it holds more than 0, and the stock_low alert clears once the stock is above stock_low_ml (a ' +
      'refill that leaves it at or under the mark keeps the alert). Answers the actuator. 422 when stock_ml is missing, ' +
      'negative or not a number, and when the actuator has no flow_ml_per_s (without a flow a dose’s volume is unknown, ' +
      'so the stock could not go down); 404 when it does not exist. Needs the modify permission in enforced mode.',
  ),
};

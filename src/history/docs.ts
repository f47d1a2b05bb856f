import { doc } from '../http/route-doc.js';

const MEASUREMENTS = 'Measurements';

export const historyDocs = {
  aggregate: doc(
    MEASUREMENTS,
    'Get Measurement Aggregates',
    'getMeasurementAggregates',
    'Per bucket of time: count, min, max, mean, first and last value, ascending, empty buckets left out. Give `bucket` (a duration) ' +
      'or `max_points` (the service picks the size). Buckets are aligned in UTC on multiples of their size since the epoch ' +
      '(hours on the hour, days at UTC midnight) and answered whole: a bucket that overlaps the window is answered with every ' +
      'measurement it holds, and its start and end say which. A window without start (or end) begins (or ends) with the ' +
      "sensor's history. Multiples of 5 minutes, 1 hour or 1 day are folded from the kept buckets (which outlive retired raw " +
      'rows); other sizes are computed from the raw rows that remain. More than 100,000 buckets: 422. A bucket has a fixed ' +
      'length: months and years (P1M, P1Y) have none and are refused with 422 (give days, e.g. P30D; time_delta still reads ' +
      'them as 30 and 365 days). A bucket longer than the years 1 to 9999, or one whose answered buckets would start before ' +
      'the year 1 or end after the year 9999 (buckets align on multiples of their size since 1970), is refused with 422 too.',
  ),
};

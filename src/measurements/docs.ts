import { doc } from '../http/route-doc.js';

const MEASUREMENTS = 'Measurements';

export const measurementDocs = {
  post: doc(
    MEASUREMENTS,
    'Post Measurement',
    'postMeasurement',
    'Records one measurement, or a batch (array of up to 10,000, all or nothing). `sensor_id` may be a numeric string. ' +
      'A timestamp without an offset is UTC; more than 5 minutes in the future is refused (422). Timestamps keep millisecond precision.',
  ),
  export: doc(
    MEASUREMENTS,
    'Export All Sensors To Csv',
    'exportAllSensorsToCsv',
    'CSV (RFC 4180, CRLF line ends) of every measurement, ordered by sensor id then timestamp, streamed as it is read. ' +
      'Filters: sensor_id (repeatable), prototype_id, start_time, end_time ([start, end)); unknown sensor or prototype ids ' +
      'select nothing (the header alone). Values are written as the shortest text that reads back as the same double; ' +
      'timestamps as ISO 8601 UTC with milliseconds and Z. It is read in short pages (by sensor, then timestamp and id), not ' +
      'as one long query: a slow download holds no database connection or snapshot, and no statement time limit can cut ' +
      'a long export short; measurements recorded while it runs may or may not appear in it.',
  ),
  window: doc(
    MEASUREMENTS,
    'Get Measurement',
    'getMeasurement',
    'The measurements of a sensor in a window, ascending by timestamp (ties by id). Without a window, all of them. ' +
      'With max_points, at most that many points, each a real stored measurement. When the history buckets read fewer rows ' +
      'than the raw rows, the window is cut into at most max_points/2 buckets aligned in UTC (a multiple of the coarsest kept ' +
      'size, 5 minutes, 1 hour or 1 day, that still gives that many) and each keeps its lowest and highest measurement; the two ' +
      'partial buckets at the edges come from raw rows. Otherwise the window is cut into max_points/2 equal spans of time, ' +
      'each keeping its lowest and highest measurement, computed in the store. After raw rows were retired (RETENTION_RAW) ' +
      'the points of their buckets still name the measurements they were. A long window is streamed as it is read.',
  ),
  last: doc(
    MEASUREMENTS,
    'Get Last Measurement',
    'getLastMeasurement',
    'The newest measurement by timestamp (ties: the highest id). 404 for an unknown sensor or one without measurements.',
  ),
  remove: doc(
    MEASUREMENTS,
    'Delete Measurement',
    'deleteMeasurement',
    'Deletes one measurement by its measurement_id. 204 without a body; 404 when it does not exist. ' +
      "Deleting a sensor's newest measurement makes the one before it the newest (last, actuator state).",
  ),
  random: doc(
    MEASUREMENTS,
    'Post Random Measurements',
    'postRandomMeasurements',
    'Fills the store with synthetic data, shared equally among all sensors (nb_measurements rounded up to a multiple of the ' +
      'sensor count). What the three ratios leave over goes to the last year. With replace (default), existing measurements ' +
      "are deleted in the same transaction. An empty body takes every default. With prototype_id, only that prototype's " +
      'sensors get data (and only their measurements are replaced); an unknown prototype_id is refused with 422. Refused with ' +
      '409, writing nothing, while any enabled actuator reads one of those sensors (its own sensor or an interlock): the ' +
      'detail names them; disable or delete them first. Generated readings never count as fresh for the restart hold.',
  ),
};

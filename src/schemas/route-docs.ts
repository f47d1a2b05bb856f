/**
 * What the OpenAPI document says of each route beside its schemas: tag, summary, operationId and
 * the prose of the behaviour a client relies on (the decisions where the contract is silent).
 */
interface RouteDoc {
  tags: string[];
  summary: string;
  operationId: string;
  description?: string;
}

const doc = (tag: string, summary: string, operationId: string, description?: string): RouteDoc => ({
  tags: [tag],
  summary,
  operationId,
  ...(description === undefined ? {} : { description }),
});

const MEASUREMENTS = 'Measurements';
const ACTUATORS = 'Actuators';
const SENSORS = 'Sensors';
const PROTOTYPES = 'Prototypes';
const USERS_AND_PICTURE = 'Users, tokens and picture';
const TIMELAPSE = 'Timelapse';

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
  aggregate: doc(
    MEASUREMENTS,
    'Get Measurement Aggregates',
    'getMeasurementAggregates',
    'Per bucket of time: count, min, max, mean, first and last value, ascending, empty buckets left out. Give `bucket` (a duration) ' +
      'or `max_points` (the service picks the size). Buckets are aligned in UTC on multiples of their size since the epoch ' +
      '(hours on the hour, days at UTC midnight) and answered whole: a bucket that overlaps the window is answered with every ' +
      'measurement it holds, and its start and end say which. A window without start (or end) begins (or ends) with the ' +
      "sensor's history. Multiples of 5 minutes, 1 hour or 1 day are folded from the kept buckets (which outlive retired raw " +
      'rows); other sizes are computed from the raw rows that remain. More than 100,000 buckets: 422.',
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
      'are deleted in the same transaction. An empty body takes every default.',
  ),
};

export const actuatorDocs = {
  post: doc(
    ACTUATORS,
    'Post Actuator',
    'postActuator',
    'Registers a pump on an existing sensor. last_activated starts at the creation time.',
  ),
  patch: doc(
    ACTUATORS,
    'Update Actuators',
    'updateActuators',
    'Partial bulk update, all or nothing. Each element names an actuator_id and the fields to change; the whole objects ' +
      'the dashboard sends back are accepted (last_activated is ignored: only the controller moves it).',
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
    'Sets last_activated to now; the controller calls it right after the pump ran. The route takes no body: ' +
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
};

export const sensorDocs = {
  post: doc(SENSORS, 'Post Sensor', 'postSensor', 'Registers a sensor on an existing prototype. 404 when the prototype does not exist.'),
  byPrototype: doc(SENSORS, 'Sensors', 'sensors', "The prototype's sensors, by sensor_id. 404 when the prototype does not exist."),
  patch: doc(
    SENSORS,
    'Update Sensors',
    'updateSensors',
    'Partial bulk update: each element names a sensor_id and the fields to change. ' +
      'Thresholds are checked on the merged result. All or nothing: one bad element and nothing is written.',
  ),
  remove: doc(
    SENSORS,
    'Delete Sensor',
    'deleteSensor',
    'Deletes the sensor. 204 without a body; 404 when it does not exist. While it has measurements or actuators: 409 ' +
      'with a detail that counts them, unless cascade=true, which deletes them with it in one transaction.',
  ),
};

export const prototypeDocs = {
  list: doc(PROTOTYPES, 'Prototypes', 'prototypes', 'All prototypes, by prototype_id.'),
  post: doc(PROTOTYPES, 'Post Prototype', 'postPrototype', 'Creates a prototype with the id the client chose. 409 when the id is taken.'),
  get: doc(PROTOTYPES, 'Prototype', 'prototype'),
  remove: doc(
    PROTOTYPES,
    'Delete Prototype',
    'deletePrototype',
    'Deletes the prototype. 204 without a body; 404 when it does not exist. While it has sensors: 409 with a detail ' +
      'that counts its sensors, actuators and measurements, unless cascade=true, which deletes all of them with it in ' +
      'one transaction. The default prototype 0 is not special: deleted, it is not created again.',
  ),
};

export const opsDocs = {
  health: doc(
    'Operations',
    'Health',
    'health',
    '200 when the store answers `select 1` within a second, 503 (within that second) when it does not. `picture` tells the state of PICTURE_SOURCE: `ok` or ' +
      '`failing` by its last capture, `unknown` before the first, `stuck` while a file capture has run past ' +
      'PICTURE_TIMEOUT_MS without returning (a hung mount; file captures wait until it returns), `none` without a ' +
      'source (uploads are served). A failing camera does not make the service unhealthy: the status code ' +
      'follows the store only, so a load balancer keeps sending traffic to an instance whose camera is down. ' +
      'With MQTT_URL set, `mqtt` tells the link to the broker: `connected`, `connecting` (the first attempt, or again after ' +
      'a loss, with backoff) or `disconnected` (waiting for the next attempt); a broker that is away does not make the service unhealthy either.',
  ),
};

export const userDocs = {
  login: (limits: { windowMs: number; perUsername: number; perAddress: number }) =>
    doc(
      USERS_AND_PICTURE,
      'Login For Access Token',
      'loginForAccessToken',
      'OAuth2 password flow: form fields `username` and `password` (urlencoded or multipart, or the same as JSON; ' +
        '`grant_type`, `scope`, `client_id`, `client_secret` are ignored). 401 for a wrong username or password, in the ' +
        `same time either way. After ${limits.perUsername} failed logins for one username, or ${limits.perAddress} from one address ` +
        `(IPv6: one /64), within ${limits.windowMs / 60_000} minutes, further attempts are refused with 429 and Retry-After ` +
        "until the oldest failure leaves the window; a successful login clears its username's failures.",
    ),
  create: doc(
    USERS_AND_PICTURE,
    'Create User Access Token',
    'createUserAccessToken',
    'Creates a user with the read and modify permissions (2|4) and returns a token for it. Same body forms as /token. ' +
      '409 when the username is taken. In AUTH_MODE=enforced it needs the admin permission once a user exists; while ' +
      'none exists it is open and the user it creates is an administrator with every permission (15); of several first ' +
      'users created at the same moment only one succeeds (the others get 401). In AUTH_MODE=open it never grants admin ' +
      '(anyone who reaches the port may call it): the first administrator is then made with the users command-line tool.',
  ),
  logout: doc(
    USERS_AND_PICTURE,
    'User Log Out',
    'userLogOut',
    'Revokes every token issued to the user up to now, device tokens included; tokens issued afterwards work. ' +
      'Needs a valid bearer token in both access modes (any permission), 401 otherwise.',
  ),
  items: doc(USERS_AND_PICTURE, 'Read Items', 'readItems', 'Echoes a valid bearer token (in both access modes); 401 otherwise.'),
};

export const pictureDocs = {
  get: (failureKeptMs: number, maxRedirects: number) =>
    doc(
      USERS_AND_PICTURE,
      'Picture',
      'picture',
      'The current camera image, its Content-Type (image/jpeg, image/png or image/webp) taken from its bytes, sent ' +
        'with Cache-Control: no-store. PICTURE_SOURCE says where it comes from: a snapshot URL (http/https, fetched ' +
        `within PICTURE_TIMEOUT_MS, at most ${maxRedirects} redirects followed and only to the same scheme), \`file:\` a ` +
        'regular file or the newest image file of a folder by modification time (other files, FIFOs, devices and ' +
        'symlinks that leave the folder skipped; the listing is kept between captures and only what changed is looked ' +
        'at again; file captures run one at a time, so a file on a hung mount holds one thread and later captures ' +
        'answer 503 at their limit), `exec:` a command run by /bin/sh whose standard output is the image (killed with ' +
        'everything it started when it runs over PICTURE_TIMEOUT_MS, a non-zero exit is a failure), or, unset, the ' +
        'last picture uploaded with PUT /picture. A picture must be complete, with a header giving its dimensions ' +
        '(JPEG SOF and EOI, PNG IHDR and IEND, WebP VP8/VP8L/VP8X within the announced RIFF length). A picture is ' +
        'shared by every request for PICTURE_CACHE_MS, and concurrent requests wait for one capture instead of ' +
        `starting their own. A failed capture is answered from memory for at most ${failureKeptMs} ms (never ` +
        'longer than PICTURE_CACHE_MS), then the camera is asked again. 503 when there is no picture: nothing ' +
        'uploaded, or a source that fails, times out, sends more than 10 MiB or something that is not a complete ' +
        'JPEG, PNG or WebP image. GET /healthz tells the state of the source.',
    ),
  upload: doc(
    USERS_AND_PICTURE,
    'Upload Picture',
    'uploadPicture',
    'Stores the raw request body (Content-Type image/jpeg, image/png or image/webp, at most 10 MiB) as the ' +
      'picture, replacing the previous one; it is kept in the store, so it survives restarts, and GET /picture ' +
      'serves it at once (other processes on the same store within PICTURE_CACHE_MS). The type is taken from the bytes: a body labelled with one accepted type that holds ' +
      'another accepted type is stored and served as what it is, while a body that is not a JPEG, PNG or WebP image ' +
      "is refused with 422 (type image_type) whatever the header says, and one that has an image's magic bytes but " +
      'is not complete, or has no header giving its dimensions (JPEG SOF and EOI, PNG IHDR and IEND, WebP ' +
      'VP8/VP8L/VP8X within the announced RIFF length), with 422 (type image_incomplete). 415 for any other ' +
      'Content-Type, 413 over 10 MiB; a refused ' +
      'upload changes nothing. When PICTURE_SOURCE is set the upload is still stored (it is served once the source ' +
      'is unset) but GET /picture serves the configured source.',
  ),
};

export const timelapseDocs = {
  start: (maxFrames: number) =>
    doc(
      TIMELAPSE,
      'Start Timelapse',
      'startTimelapse',
      "Starts a timelapse: frame n is taken from the camera (GET /picture's source, sharing its captures and " +
        'PICTURE_CACHE_MS) at start + n × frequency, for every n with n × frequency < duration; a late capture does ' +
        'not move the frames after it. A failed capture is skipped and counted in failed_frames; it never ends the ' +
        'timelapse. Every frame has the image type of the first (a frame of another type counts as failed). When ' +
        'the end date comes, ffmpeg assembles the video. 422 for a value that is not a positive whole number, a ' +
        `duration shorter than the frequency, or more frames than TIMELAPSE_MAX_FRAMES (${maxFrames} ` +
        'here); 409 when a timelapse is already running. A running timelapse resumes after a restart of the ' +
        'service until its end date.',
    ),
  stop: doc(
    TIMELAPSE,
    'Stop Timelapse',
    'stopTimelapse',
    'Stops the running timelapse and answers at once; ffmpeg then assembles the video of the frames taken so ' +
      'far (`ready` turns true when it is done). A capture under way is not waited for. With no timelapse ' +
      'running it changes nothing and answers the status (a second click is not an error).',
  ),
  latestFrame: doc(
    TIMELAPSE,
    'Latest Timelapse Frame',
    'latestTimelapseFrame',
    'The newest frame of the running timelapse (image/jpeg, image/png or image/webp, as the camera gave it), ' +
      'sent with Cache-Control: no-store. 404 when no timelapse is running or it has no frame yet.',
  ),
  list: doc(TIMELAPSE, 'Timelapses', 'timelapses', 'Every timelapse kept under TIMELAPSE_DIR, newest first (by start_date).'),
  download: doc(
    TIMELAPSE,
    'Download Timelapse',
    'downloadTimelapse',
    "The video: H.264 MP4 (yuv420p) at the timelapse's framerate, one frame per frame taken, streamed from disk " +
      'with Content-Length, `Content-Disposition: attachment; filename=timelapse_<id>.mp4`, and range requests ' +
      '(206 with Content-Range; 416 for a range past the end) and conditional requests (ETag, Last-Modified). 404 for an unknown id; 409 while the video is not ' +
      'ready, with a `detail` that says why: still running, being assembled, no frame taken, or ffmpeg missing or ' +
      'failed.',
  ),
  remove: doc(
    TIMELAPSE,
    'Delete Timelapse',
    'deleteTimelapse',
    'Deletes a timelapse with its frames and video; a running one is stopped first (no video is made). 404 for an unknown id.',
  ),
  status: (summary: string, operationId: string) =>
    doc(
      TIMELAPSE,
      summary,
      operationId,
      'Whether a timelapse is running, and the metadata and configuration of the running one, else of the last ' +
        'one started (null when there is none).',
    ),
};

const ALERTS = 'Alerts';

export const alertDocs = {
  list: doc(
    ALERTS,
    'Alerts',
    'alerts',
    'Alerts newest first (by alert_id). state: active (default), cleared or all; filters prototype_id and sensor_id ' +
      '(an unknown id selects nothing); limit 1 to 1000 (default 100); before: only alerts with a lower alert_id, for ' +
      'the next page. A sensor leaving ok raises one alert of its kind (low or high; critical for the critical levels), ' +
      'moving between warning and critical changes the same alert (the escalated event, either way), and it clears ' +
      'once the sensor has stayed ok for ALERT_CLEAR_AFTER; a sensor crossing straight to the other side clears the ' +
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

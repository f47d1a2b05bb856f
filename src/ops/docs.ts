import { doc } from '../http/route-doc.js';

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

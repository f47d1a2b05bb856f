import { doc } from '../http/route-doc.js';

const TIMELAPSE = 'Timelapse';

export const timelapseDocs = {
  start: (maxFrames: number, maxBytes: number) =>
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
        'here); 409 when a timelapse is already running; 507 when the timelapses kept use TIMELAPSE_MAX_BYTES ' +
        `(${maxBytes === 0 ? 'no limit' : `${maxBytes} bytes`} here) or more: delete old ones to make room. A running ` +
        'timelapse that reaches TIMELAPSE_MAX_BYTES stops, and its video is made of the frames taken. A running ' +
        'timelapse resumes after a restart of the service until its end date.',
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

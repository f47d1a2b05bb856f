import { doc } from '../http/route-doc.js';

const USERS_AND_PICTURE = 'Users, tokens and picture';

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

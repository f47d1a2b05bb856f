/** Any reason the camera gave no picture; the route answers 503 for all of them. */
export class CameraUnavailable extends Error {}

/** The largest picture taken from a source or an upload. */
export const MAX_PICTURE_BYTES = 10 * 1024 * 1024;

export const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

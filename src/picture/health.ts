import type { SourceState } from './sources.js';

/** What /healthz says of the picture: the source's state, or `none` without a source (uploads are served). */
export type PictureHealth = SourceState | 'none';

export const PICTURE_HEALTH: readonly PictureHealth[] = ['ok', 'failing', 'stuck', 'unknown', 'none'];

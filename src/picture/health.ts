import type { SourceState } from './sources.js';

/** What /healthz says of the picture: the source's state, or `none` without a source (uploads are served). */
export type PictureHealth = SourceState | 'none';

export const PICTURE_HEALTH: readonly PictureHealth[] = ['ok', 'failing', 'stuck', 'unknown', 'none'];

/** Keyed by the app's configuration object: one app, one picture source, told to its health route. */
const reporters = new WeakMap<object, () => PictureHealth>();

export function reportPictureHealth(config: object, state: () => PictureHealth): void {
  reporters.set(config, state);
}

export function pictureHealth(config: object): PictureHealth {
  return reporters.get(config)?.() ?? 'none';
}

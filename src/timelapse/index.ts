import type { Config } from '../config/index.js';
import type { Logger } from '../core/logger.js';
import { systemTimers } from '../core/timers.js';
import type { App } from '../http/app-type.js';
import type { PictureService } from '../picture/service.js';
import timelapseRoutes from './routes.js';
import { type TimelapseService, timelapseService } from './service.js';

export interface TimelapseDeps {
  config: Pick<Config, 'timelapseDir' | 'ffmpegPath' | 'timelapseMaxFrames' | 'timelapseMaxBytes'>;
  /** Frames come from the picture route's shared capture. */
  services: { pictures: Pick<PictureService, 'current' | 'hasCamera'> };
  now: () => number;
  log: Logger;
}

/**
 * Timelapses (§7.1): the service and its routes. A timelapse that was running resumes once the
 * app is ready; on close (SIGTERM) its timer stops and ffmpeg is stopped.
 */
export async function register(app: App, { config, services, now, log }: TimelapseDeps): Promise<TimelapseService> {
  const timelapses = timelapseService({
    dir: config.timelapseDir,
    ffmpegPath: config.ffmpegPath,
    maxFrames: config.timelapseMaxFrames,
    maxBytes: config.timelapseMaxBytes,
    capture: () => services.pictures.current(),
    hasCamera: () => services.pictures.hasCamera(),
    now,
    timers: systemTimers,
    log,
  });
  app.addHook('onReady', () => timelapses.resume());
  app.addHook('onClose', () => timelapses.close());
  await app.register(timelapseRoutes, { config, timelapses });
  return timelapses;
}

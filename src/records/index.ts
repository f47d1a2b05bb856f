import type { Config } from '../config/index.js';
import type { ChangeBus } from '../core/bus.js';
import type { Logger } from '../core/logger.js';
import { systemTimers, type Timers } from '../core/timers.js';
import type { App } from '../http/app-type.js';
import type { Store } from '../store/index.js';
import { calibrationAlerts } from './calibration-alerts.js';
import { calibrationService } from './calibration-service.js';
import { journalService } from './journal-service.js';
import { noteService } from './note-service.js';
import recordRoutes from './routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Resolves once the calibration_due alert changes asked for so far are committed and published (tests). */
    recordsSettled(): Promise<void>;
  }
}

export interface RecordsDeps {
  store: Store;
  bus: ChangeBus;
  now: () => number;
  log: Logger;
  config: Pick<Config, 'authMode' | 'alertWebhookUrls'>;
  /** The alerts' timers (tests move time themselves): the calibration_due alarms are alert alarms. */
  alertsOptions?: { timers?: Timers };
}

/**
 * A grower's records (docs/api.md §15, calibrations and journal): the calibrations of the sensors and
 * their calibration_due alerts, the notes of the prototypes and the journal that merges them
 * with what the dosing safety recorded. The alerts start with the app and stop before the store
 * closes.
 */
export async function register(app: App, deps: RecordsDeps) {
  const { store, bus, now, log, config } = deps;
  const serviceDeps = { store, bus, now, log };
  const records = {
    calibrations: calibrationService(serviceDeps),
    notes: noteService(serviceDeps),
    journal: journalService(serviceDeps),
  };
  const alerts = calibrationAlerts({
    store,
    bus,
    now,
    timers: deps.alertsOptions?.timers ?? systemTimers,
    log,
    webhookUrls: config.alertWebhookUrls,
  });
  await alerts.start();
  app.decorate('recordsSettled', () => alerts.idle());
  await app.register(recordRoutes, { records, config });
  app.addHook('onClose', () => alerts.stop());
  return { records, alerts };
}

import type { Config } from '../config/index.js';
import type { ActuatorService } from '../actuators/service.js';
import type { ChangeBus } from '../core/bus.js';
import type { Logger } from '../core/logger.js';
import { systemTimers, type Timers } from '../core/timers.js';
import type { App } from '../http/app-type.js';
import type { Store } from '../store/index.js';
import { actuatorWatch } from './actuator-watch.js';
import { doseJudge } from './dose-judge.js';
import alertRoutes from './routes.js';
import { alertService } from './service.js';
import { stockWatch } from './stock-watch.js';
import { alertWatcher } from './watcher.js';
import { DEFAULT_WEBHOOK_TIMING, webhookDelivery, type WebhookSettings } from './webhooks.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Resolves once the alert evaluations, dose judgings and actuator alerts queued so far are committed and published (tests). */
    alertsSettled(): Promise<void>;
  }
}

/** Settings of the alerts that tests change. */
export interface AlertsOptions {
  /** The alarms of stale sensors, clear-afters and webhook retries (tests move time themselves). */
  timers?: Timers;
  webhooks?: Partial<Omit<WebhookSettings, 'urls' | 'retryForMs'>>;
}

export interface AlertsDeps {
  store: Store;
  bus: ChangeBus;
  now: () => number;
  log: Logger;
  config: Pick<Config, 'staleAfterMs' | 'alertClearAfterMs' | 'alertWebhookUrls' | 'alertWebhookRetryForMs' | 'authMode'>;
  alertsOptions?: AlertsOptions;
  /** The one dosing decision, for the actuators of a prototype's status. */
  services: { actuators: Pick<ActuatorService, 'decision'> };
}

/**
 * Alerts (§11, §14, §15): the watcher that evaluates levels as measurements are committed and as
 * time passes, the dose judging that locks actuators out, the actuators' limit and controller
 * alerts, the bottles' stock_low alerts, the webhook outbox delivery, and the routes. Both start
 * once the app is ready and stop before the store closes.
 */
export async function register(app: App, deps: AlertsDeps) {
  const { store, bus, now, config, log } = deps;
  const options = deps.alertsOptions ?? {};
  const timers = options.timers ?? systemTimers;
  const webhookUrls = config.alertWebhookUrls;
  const watcher = alertWatcher({
    store,
    bus,
    now,
    timers,
    settings: { staleAfterMs: config.staleAfterMs, clearAfterMs: config.alertClearAfterMs, webhookUrls },
    log,
  });
  const webhooks = webhookDelivery({
    store,
    bus,
    now,
    timers,
    settings: { ...DEFAULT_WEBHOOK_TIMING, ...options.webhooks, urls: webhookUrls, retryForMs: config.alertWebhookRetryForMs },
    log,
  });
  const judge = doseJudge({ store, bus, now, timers, log, webhookUrls });
  const actuators = actuatorWatch({ store, bus, now, log, webhookUrls });
  const stock = stockWatch({ store, bus, now, log, webhookUrls });
  const alerts = alertService({
    store,
    bus,
    now,
    staleAfterMs: config.staleAfterMs,
    webhookUrls,
    decisionOf: deps.services.actuators.decision,
  });
  await watcher.start();
  await judge.start();
  await actuators.start();
  await stock.start();
  webhooks.start();
  app.decorate('alertsSettled', async () => {
    await watcher.idle();
    await judge.idle();
    await actuators.idle();
    await stock.idle();
    await watcher.idle();
  });
  await app.register(alertRoutes, { alerts, authMode: config.authMode });
  app.addHook('onClose', async () => {
    await actuators.stop();
    await stock.stop();
    await judge.stop();
    await watcher.stop();
    await webhooks.stop();
  });
  return { watcher, webhooks, alerts, judge, actuators, stock };
}

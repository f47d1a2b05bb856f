import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { ChangeBus } from '../events/bus.js';
import { systemTimers, type Timers } from '../events/timers.js';
import type { Store } from '../store/index.js';
import alertRoutes from './routes.js';
import { alertService } from './service.js';
import { alertWatcher } from './watcher.js';
import { DEFAULT_WEBHOOK_TIMING, webhookDelivery, type WebhookSettings } from './webhooks.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Resolves once the alert evaluations queued so far are committed and published (tests). */
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
  config: Pick<Config, 'staleAfterMs' | 'alertClearAfterMs' | 'alertWebhookUrls' | 'alertWebhookRetryForMs' | 'authMode'>;
}

/**
 * Alerts (§11): the watcher that evaluates levels as measurements are committed and as time
 * passes, the webhook outbox delivery, and the routes. Both start once the app is ready and stop
 * before the store closes.
 */
export async function registerAlerts(app: FastifyInstance, deps: AlertsDeps, options: AlertsOptions = {}) {
  const { store, bus, now, config } = deps;
  const timers = options.timers ?? systemTimers;
  const webhookUrls = config.alertWebhookUrls;
  const watcher = alertWatcher({
    store,
    bus,
    now,
    timers,
    settings: { staleAfterMs: config.staleAfterMs, clearAfterMs: config.alertClearAfterMs, webhookUrls },
    log: app.log,
  });
  const webhooks = webhookDelivery({
    store,
    bus,
    now,
    timers,
    settings: { ...DEFAULT_WEBHOOK_TIMING, ...options.webhooks, urls: webhookUrls, retryForMs: config.alertWebhookRetryForMs },
    log: app.log,
  });
  const alerts = alertService({ store, bus, now, staleAfterMs: config.staleAfterMs, webhookUrls });
  await watcher.start();
  webhooks.start();
  app.decorate('alertsSettled', () => watcher.idle());
  await app.register(alertRoutes, { alerts, authMode: config.authMode });
  app.addHook('onClose', async () => {
    await watcher.stop();
    await webhooks.stop();
  });
  return { watcher, webhooks, alerts };
}

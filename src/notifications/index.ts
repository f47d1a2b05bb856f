import { hostname } from 'node:os';
import type { AlertService } from '../alerts/service.js';
import { DEFAULT_WEBHOOK_TIMING } from '../alerts/webhooks.js';
import { tokenSecret } from '../auth/tokens.js';
import type { Config } from '../config/index.js';
import type { ChangeBus } from '../core/bus.js';
import type { Logger } from '../core/logger.js';
import { systemTimers, type Timers } from '../core/timers.js';
import type { App } from '../http/app-type.js';
import type { Store } from '../store/index.js';
import { ackLinks } from './ack.js';
import { channelService } from './channels.js';
import { channelDelivery } from './delivery.js';
import { linkSigner } from './links.js';
import { notifier } from './notifier.js';
import { outageWatch } from './outage.js';
import { notificationRoutes } from './routes.js';
import { sealer as makeSealer } from './seal.js';
import { sendThrough } from './senders.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Resolves once the notification rounds and deliveries under way have run (tests). */
    notificationsSettled(): Promise<void>;
  }
}

export interface NotificationsDeps {
  config: Pick<Config, 'notifications' | 'tokenSecret' | 'host' | 'port' | 'alertWebhookRetryForMs'>;
  store: Store;
  bus: ChangeBus;
  now: () => number;
  log: Logger;
  alerts: AlertService;
  /** The alerts' timers (tests move time themselves). */
  timers?: Timers;
  webhookTiming?: { firstDelayMs?: number; maxDelayMs?: number };
}

/**
 * Notifications that wake a grower (docs/notifications.md): channels set by an administrator,
 * messages about alerts repeated until answered and escalated, each with an acknowledge link,
 * delivered through the alert outbox; a notice after an unclean stop.
 */
export async function register(app: App, deps: NotificationsDeps) {
  const { config, store, bus, now, log } = deps;
  const settings = config.notifications;
  const timers = deps.timers ?? systemTimers;
  const secret = await tokenSecret(config.tokenSecret, store.settings);
  const sealer = makeSealer(secret);
  const links = linkSigner(secret);
  const channels = channelService(store, sealer, settings, now);

  const publicUrl = () => {
    if (settings.publicUrl) return settings.publicUrl;
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const host = config.host === '0.0.0.0' || config.host === '::' ? hostname() : config.host;
    return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  };

  let kickNotifier = () => {};
  const delivery = channelDelivery({
    store,
    now,
    timers,
    settings,
    sealer,
    log,
    retry: { ...DEFAULT_WEBHOOK_TIMING, ...deps.webhookTiming, retryForMs: config.alertWebhookRetryForMs },
    onFailing: () => kickNotifier(),
  });
  const notify = notifier({ store, bus, now, timers, settings, links, publicUrl, log, enqueued: () => void delivery.kickAll() });
  kickNotifier = () => notify.kick();
  const outage = outageWatch(store.settings, now, timers, log);

  await app.register(notificationRoutes, {
    channels: {
      ...channels,
      async create(body) {
        const made = await channels.create(body);
        notify.kick();
        return made;
      },
    },
    test: async (channelId) => {
      const channel = await channels.open(channelId);
      const id = `test-${now()}-${channelId}`;
      return sendThrough(
        channel,
        {
          id,
          title: 'sensorhub test message',
          text: `This is a test from sensorhub to the ${channel.type} channel "${channel.name}". Alerts will arrive like this.`,
          priority: 'info',
          ack_url: null,
        },
        settings,
      );
    },
    links: ackLinks({ store, links, now, alerts: deps.alerts }),
  });

  app.decorate('notificationsSettled', async () => {
    await notify.idle();
    await delivery.idle();
    await notify.idle();
  });

  app.addHook('onReady', async () => {
    await outage.start((title, text) => notify.notice(title, text, false));
    notify.start();
    await delivery.kickAll();
  });
  app.addHook('onClose', async () => {
    await notify.stop();
    await delivery.stop();
    await outage.stop();
  });
  return { notify, delivery, channels };
}

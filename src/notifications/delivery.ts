import { nextAttempt } from '../alerts/webhooks.js';
import type { Logger } from '../core/logger.js';
import type { Timers } from '../core/timers.js';
import type { Store } from '../store/index.js';
import { destinationOf, openChannel } from './channels.js';
import type { Sealer } from './seal.js';
import { type Outgoing, sendThrough } from './senders.js';
import type { NotificationSettings } from '../config/notifications.js';

/** Heads of alerts delivered at once to one channel. */
const BATCH = 8;
const BUSY_RETRY_MS = 1000;

export interface DeliveryDeps {
  store: Store;
  now: () => number;
  timers: Timers;
  settings: NotificationSettings;
  sealer: Sealer;
  log: Logger;
  /** How long a message is retried, and the backoff (the webhooks' settings). */
  retry: { retryForMs: number; firstDelayMs: number; maxDelayMs: number };
  /** A channel began to fail (the notifier watches how long). */
  onFailing: () => void;
}

/**
 * Delivers each channel's messages from the alert outbox: at least once (a row leaves only once
 * the far end took it), in order per alert (the next waits for the one before), retried with
 * doubling waits; each channel in a loop of its own, so a dead one holds up only itself. A
 * channel's first failure is recorded (the notifier tells the others when it lasts); a success
 * clears it. Rows survive restarts and kills.
 */
export function channelDelivery({ store, now, timers, settings, sealer, log, retry, onFailing }: DeliveryDeps) {
  interface Loop {
    running: Promise<void> | undefined;
    again: boolean;
    alarm: unknown;
  }
  const loops = new Map<number, Loop>();
  let stopped = false;

  function kick(channelId: number): void {
    if (stopped) return;
    let loop = loops.get(channelId);
    if (!loop) loops.set(channelId, (loop = { running: undefined, again: false, alarm: undefined }));
    if (loop.running) {
      loop.again = true;
      return;
    }
    const l = loop;
    l.running = run(channelId, l).finally(() => {
      l.running = undefined;
      if (l.again) kick(channelId);
    });
  }

  function wakeAt(channelId: number, loop: Loop, at: number): void {
    if (stopped) return;
    if (loop.alarm !== undefined) timers.clear(loop.alarm);
    loop.alarm = timers.set(
      () => {
        loop.alarm = undefined;
        kick(channelId);
      },
      Math.max(0, at - now()),
    );
  }

  async function run(channelId: number, loop: Loop): Promise<void> {
    loop.again = false;
    const destination = destinationOf(channelId);
    try {
      const done = await store.exclusively(`notifications ${destination}`, async () => {
        for (;;) {
          if (stopped) return true;
          const stored = await store.notifications.channel(channelId);
          if (!stored) return true;
          const channel = openChannel(stored, sealer);
          const due = await store.alerts.due(destination, now(), BATCH);
          if (due.length === 0) return true;
          let failingSince = stored.failing_since;
          let failureTold = stored.failure_told;
          for (const n of due) {
            const message = JSON.parse(n.payload) as Outgoing;
            const result = await sendThrough(channel, message, settings);
            if (stopped) return true;
            if (result.ok) {
              await store.alerts.done(n.notification_id);
              if (failingSince !== null) {
                failingSince = null;
                failureTold = false;
                await store.notifications.setFailing(channelId, null, false);
              }
              continue;
            }
            const failure = `${result.status ? `${result.status} ` : ''}${result.detail}`.trim();
            if (failingSince === null) {
              failingSince = now();
              await store.notifications.setFailing(channelId, failingSince, failureTold);
              onFailing();
            }
            const at = nextAttempt(n.created_at, n.attempts + 1, now(), retry);
            if (at === undefined) {
              log.warn({ channel: channelId, alertId: n.alert_id, error: failure }, 'notification given up after ALERT_WEBHOOK_RETRY_FOR');
              await store.alerts.done(n.notification_id);
            } else {
              log.warn({ channel: channelId, alertId: n.alert_id, error: failure }, 'notification not delivered; retrying');
              await store.alerts.retryAt(n.notification_id, at, failure);
            }
          }
        }
      });
      if (done === undefined) return wakeAt(channelId, loop, now() + BUSY_RETRY_MS);
      const next = await store.alerts.nextDue(destination);
      if (next !== undefined) wakeAt(channelId, loop, next);
    } catch (error) {
      log.error({ err: error, channel: channelId }, 'notification delivery failed to read its outbox; trying again shortly');
      wakeAt(channelId, loop, now() + BUSY_RETRY_MS * 5);
    }
  }

  return {
    /** Starts (or wakes) the loop of every channel. */
    async kickAll(): Promise<void> {
      for (const c of await store.notifications.channels()) kick(c.channel_id);
    },
    kick,
    /** Resolves once the deliveries under way have finished a round (tests). */
    async idle(): Promise<void> {
      for (;;) {
        const busy = [...loops.values()].map((l) => l.running).filter(Boolean);
        if (busy.length === 0) return;
        await Promise.all(busy);
      }
    },
    async stop(): Promise<void> {
      stopped = true;
      for (const loop of loops.values()) {
        if (loop.alarm !== undefined) timers.clear(loop.alarm);
        await loop.running;
      }
    },
  };
}

export type ChannelDelivery = ReturnType<typeof channelDelivery>;

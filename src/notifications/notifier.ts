import { randomUUID } from 'node:crypto';
import type { ChangeBus } from '../core/bus.js';
import type { Logger } from '../core/logger.js';
import type { Timers } from '../core/timers.js';
import type { FollowedAlert, Repositories, Store, StoredChannel } from '../store/index.js';
import { destinationOf } from './channels.js';
import type { LinkSigner } from './links.js';
import { alertMessage, durationWords, type Message, noticeMessage } from './message.js';
import { channelWants, planAlert, type PlannedMessage } from './plan.js';
import { sendAt } from './schedule.js';
import type { NotificationSettings } from '../config/notifications.js';

/** Where the notifier remembers the newest alert it has looked at (alerts older than the first start are not told). */
const CURSOR_KEY = 'notifications_cursor';
/** Another instance is looking: try again after this long. */
const BUSY_RETRY_MS = 1000;
/** An alert id for the service's own notices in the outbox (no alert has it). */
export const NOTICE_ALERT_ID = 0;

export interface NotifierDeps {
  store: Store;
  bus: ChangeBus;
  now: () => number;
  timers: Timers;
  settings: NotificationSettings;
  links: LinkSigner;
  /** The acknowledge links' start: PUBLIC_URL or http://HOST:PORT. */
  publicUrl: () => string;
  log: Logger;
  /** Called after messages were committed to the outbox (delivery starts). */
  enqueued: () => void;
}

/**
 * Turns alerts into messages. Each round reads the alerts that may need one (active, new, or
 * with messages not finished), decides with `planAlert` from what was already sent, and commits
 * each alert's new progress with its messages in one transaction: a crash before the commit
 * means the next round decides the same again, after it the outbox delivers. Rounds run on
 * every alert event, when a repeat or an escalation falls due, and at start.
 */
export function notifier(deps: NotifierDeps) {
  const { store, bus, now, timers, settings, log } = deps;
  let running: Promise<void> | undefined;
  let again = false;
  let alarm: unknown;
  let stopped = false;
  let unsubscribe: (() => void) | undefined;

  function kick(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = round()
      .catch((error: unknown) => {
        log.error({ err: error }, 'notifications: a round failed; trying again shortly');
        wakeAt(now() + BUSY_RETRY_MS * 5);
      })
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          kick();
        }
      });
  }

  function wakeAt(at: number): void {
    if (stopped) return;
    if (alarm !== undefined) timers.clear(alarm);
    alarm = timers.set(
      () => {
        alarm = undefined;
        kick();
      },
      Math.max(0, at - now()),
    );
  }

  /** One message for each channel that wants it, each at its time. */
  function outboxRows(
    channels: readonly StoredChannel[],
    alertId: number,
    at: number,
    urgent: boolean,
    wants: (c: StoredChannel) => boolean,
    message: (c: StoredChannel) => Message,
  ) {
    return channels.filter(wants).map((c) => {
      const id = randomUUID();
      const m = message(c);
      return {
        alert_id: alertId,
        url: destinationOf(c.channel_id),
        idempotency_key: id,
        payload: JSON.stringify({ ...m, id }),
        created_at: at,
        next_attempt_at: sendAt(at, urgent, c.quiet_from && c.quiet_to ? { from: c.quiet_from, to: c.quiet_to } : null, settings.timeZone),
      };
    });
  }

  function ackUrl(alertId: number, channelId: number, at: number): string {
    const token = deps.links.sign({ alert_id: alertId, channel_id: channelId, expires: at + settings.linkTtlMs });
    return `${deps.publicUrl()}/notifications/ack/${token}`;
  }

  async function tell(
    tx: Repositories,
    channels: readonly StoredChannel[],
    alert: FollowedAlert,
    message: PlannedMessage,
    wasCritical: boolean,
    at: number,
  ): Promise<void> {
    const urgent = alert.severity === 'critical' && alert.state === 'active';
    const rows = outboxRows(
      channels,
      alert.alert_id,
      at,
      urgent,
      (c) => channelWants(c, alert, message, wasCritical),
      (c) =>
        alertMessage(alert, message.kind, message.kind === 'cleared' ? null : ackUrl(alert.alert_id, c.channel_id, at), message.repeat),
    );
    // A critical message must not wait behind a warning held for the quiet hours.
    if (urgent) for (const row of rows) await tx.notifications.releaseHeld(row.url, alert.alert_id, at);
    await tx.notifications.enqueue(rows);
  }

  async function round(): Promise<void> {
    const done = await store.exclusively('notifications', async () => {
      const at = now();
      const stored = await store.settings.get(CURSOR_KEY);
      let cursor = stored === undefined ? await store.notifications.newestAlertId() : Number(stored);
      const channels = await store.notifications.channels();
      const alerts = await store.notifications.alertsToFollow(cursor);
      const progress = await store.notifications.progress(alerts.map((a) => a.alert_id));
      let wake: number | undefined;
      let told = false;
      for (const alert of alerts) {
        cursor = Math.max(cursor, alert.alert_id);
        if (channels.length === 0) continue;
        const before = progress.get(alert.alert_id);
        const plan = planAlert(alert, before, at, settings);
        if (plan.wakeAt !== undefined) wake = Math.min(wake ?? Infinity, plan.wakeAt);
        if (!plan.progress) continue;
        const wasCritical = (plan.progress.critical_since ?? before?.critical_since ?? null) !== null;
        await store.transaction(async (tx) => {
          for (const message of plan.messages) await tell(tx, channels, alert, message, wasCritical, at);
          await tx.notifications.saveProgress(plan.progress!);
        });
        if (plan.messages.length) told = true;
      }
      if (stored === undefined || Number(stored) !== cursor) await store.settings.set(CURSOR_KEY, String(cursor));
      const failing = await reportFailing(channels, at);
      if (failing.wake !== undefined) wake = Math.min(wake ?? Infinity, failing.wake);
      if (told || failing.told) deps.enqueued();
      return { wake };
    });
    // Another instance was at it (undefined from `exclusively`): look again shortly.
    if (done === undefined) return wakeAt(now() + BUSY_RETRY_MS);
    if (done.wake !== undefined) wakeAt(done.wake);
  }

  /** A channel failing for NOTIFY_FAILING_AFTER is told, once, on the others (urgently: it may be the one that wakes someone). */
  async function reportFailing(channels: readonly StoredChannel[], at: number): Promise<{ told: boolean; wake: number | undefined }> {
    let told = false;
    let wake: number | undefined;
    for (const c of channels) {
      if (c.failing_since === null || c.failure_told) continue;
      const due = c.failing_since + settings.failingAfterMs;
      if (at < due) {
        wake = Math.min(wake ?? Infinity, due);
        continue;
      }
      const others = channels.filter((o) => o.channel_id !== c.channel_id && !o.escalation);
      await store.transaction(async (tx) => {
        await tx.notifications.enqueue(
          outboxRows(
            others,
            NOTICE_ALERT_ID,
            at,
            true,
            () => true,
            () =>
              noticeMessage(
                `Notifications: channel "${c.name}" is failing`,
                `The ${c.type} channel "${c.name}" has failed to deliver for ${durationWords(at - c.failing_since!)}: ` +
                  'alerts may not reach whoever relies on it. Check it on the Notifications page (the Test button shows what its far end answers).',
                true,
              ),
          ),
        );
        await tx.notifications.setFailing(c.channel_id, c.failing_since, true);
      });
      told = true;
    }
    return { told, wake };
  }

  return {
    kick,

    /** A notice from the service (back after an outage): to every channel but the escalation ones, now or after quiet hours. */
    async notice(title: string, text: string, urgent: boolean): Promise<void> {
      const at = now();
      const channels = await store.notifications.channels();
      const rows = outboxRows(
        channels,
        NOTICE_ALERT_ID,
        at,
        urgent,
        (c) => !c.escalation,
        () => noticeMessage(title, text, urgent),
      );
      await store.notifications.enqueue(rows);
      if (rows.length) deps.enqueued();
    },

    start(): void {
      unsubscribe = bus.subscribe('alert', () => kick());
      kick();
    },

    /** Resolves once the rounds asked for so far have run (tests). */
    async idle(): Promise<void> {
      while (running) await running;
    },

    async stop(): Promise<void> {
      stopped = true;
      unsubscribe?.();
      if (alarm !== undefined) timers.clear(alarm);
      await running;
    },
  };
}

export type Notifier = ReturnType<typeof notifier>;

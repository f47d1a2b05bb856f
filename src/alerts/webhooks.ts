import type { ChangeBus } from '../core/bus.js';
import type { Logger } from '../core/logger.js';
import type { Timers } from '../core/timers.js';
import type { Store, StoredNotification } from '../store/index.js';

export interface WebhookSettings {
  urls: readonly string[];
  /** How long a notification is retried, from the event (ALERT_WEBHOOK_RETRY_FOR). */
  retryForMs: number;
  /** The longest one POST may take before it counts as failed. */
  timeoutMs: number;
  /** The first retry's delay; each next one doubles, up to `maxDelayMs`. */
  firstDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_WEBHOOK_TIMING = { timeoutMs: 10_000, firstDelayMs: 1000, maxDelayMs: 3_600_000 };

/** Heads of alerts delivered at once to one URL: alerts go side by side, each alert's events in order. */
const BATCH = 16;
/** Another instance delivering to the URL: look again after this long. */
const BUSY_RETRY_MS = 1000;

export interface WebhookDeps {
  store: Pick<Store, 'alerts' | 'exclusively'>;
  bus: ChangeBus;
  now: () => number;
  timers: Timers;
  settings: WebhookSettings;
  log: Logger;
}

/**
 * Drops an answer's body unread: a receiver answering with gigabytes, or trickling bytes without
 * end, costs neither memory nor time. Cancelling the stream closes the connection.
 */
async function discardBody(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}

/** When a notification that failed `attempts` times is tried next, or undefined once its time is up. */
export function nextAttempt(
  createdAt: number,
  attempts: number,
  at: number,
  s: Omit<WebhookSettings, 'urls' | 'timeoutMs'>,
): number | undefined {
  const deadline = createdAt + s.retryForMs;
  if (at >= deadline) return undefined;
  const delay = Math.min(s.firstDelayMs * 2 ** Math.min(attempts - 1, 40), s.maxDelayMs);
  return Math.min(at + delay, deadline);
}

/**
 * Delivers the outbox (alert_notifications) to the webhook URLs: at least once (a row leaves the
 * outbox only after a 2xx), in order per alert and URL (an alert's next event waits for the one
 * before), with exponential backoff until ALERT_WEBHOOK_RETRY_FOR. Each URL has its own loop, so a
 * slow or dead receiver holds up only itself; nothing here is awaited by a write. With several
 * instances one delivers to a URL at a time (`store.exclusively`); rows committed by any
 * instance are seen by the next round, which the `alert` events (relayed between instances) and
 * one alarm per URL for the next retry start. Rows survive restarts and kills: a new start
 * delivers what is waiting.
 */
export function webhookDelivery({ store, bus, now, timers, settings, log }: WebhookDeps) {
  const stop = new AbortController();
  const loops = new Map(
    settings.urls.map((url) => [url, { running: undefined as Promise<void> | undefined, again: false, alarm: undefined as unknown }]),
  );
  let unsubscribe: (() => void) | undefined;

  function kick(url: string): void {
    const loop = loops.get(url);
    if (!loop || stop.signal.aborted) return;
    if (loop.running) {
      loop.again = true;
      return;
    }
    loop.running = run(url, loop).finally(() => {
      loop.running = undefined;
      if (loop.again) kick(url);
    });
  }

  function wakeAt(url: string, loop: { alarm: unknown }, at: number): void {
    if (stop.signal.aborted) return;
    if (loop.alarm !== undefined) timers.clear(loop.alarm);
    loop.alarm = timers.set(() => {
      loop.alarm = undefined;
      kick(url);
    }, at - now());
  }

  async function run(url: string, loop: { again: boolean; alarm: unknown }): Promise<void> {
    loop.again = false;
    try {
      const done = await store.exclusively(`alert-webhooks ${url}`, async () => {
        for (;;) {
          if (stop.signal.aborted) return true;
          const due = await store.alerts.due(url, now(), BATCH);
          if (due.length === 0) return true;
          await Promise.all(due.map((n) => deliver(url, n)));
        }
      });
      if (done === undefined) return wakeAt(url, loop, now() + BUSY_RETRY_MS);
      const next = await store.alerts.nextDue(url);
      if (next !== undefined) wakeAt(url, loop, next);
    } catch (error) {
      log.error({ err: error, url }, 'webhook delivery failed to read its outbox; trying again shortly');
      wakeAt(url, loop, now() + BUSY_RETRY_MS * 5);
    }
  }

  async function deliver(url: string, n: StoredNotification): Promise<void> {
    let failure: string;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': n.idempotency_key },
        body: n.payload,
        signal: AbortSignal.any([AbortSignal.timeout(settings.timeoutMs), stop.signal]),
        redirect: 'manual',
      });
      // Only the status counts: the body is never read, however large or slow (hanging up drops the connection).
      await discardBody(response);
      if (response.ok) return store.alerts.done(n.notification_id);
      failure = `HTTP ${response.status}`;
    } catch (error) {
      if (stop.signal.aborted) return;
      failure =
        (error as Error).name === 'TimeoutError' ? `no answer within ${settings.timeoutMs} ms` : String((error as Error).cause ?? error);
    }
    const attempts = n.attempts + 1;
    const at = nextAttempt(n.created_at, attempts, now(), settings);
    if (at === undefined) {
      log.warn({ url, alertId: n.alert_id, attempts, error: failure }, 'alert notification given up after ALERT_WEBHOOK_RETRY_FOR');
      return store.alerts.done(n.notification_id);
    }
    await store.alerts.retryAt(n.notification_id, at, failure);
  }

  return {
    start(): void {
      if (settings.urls.length === 0) return;
      // Any alert event, here or relayed from another instance, may have put rows in the outbox.
      unsubscribe = bus.subscribe('alert', () => {
        for (const url of loops.keys()) kick(url);
      });
      for (const url of loops.keys()) kick(url);
    },

    async stop(): Promise<void> {
      stop.abort();
      unsubscribe?.();
      for (const loop of loops.values()) {
        if (loop.alarm !== undefined) timers.clear(loop.alarm);
        await loop.running;
      }
    },
  };
}

import { randomUUID } from 'node:crypto';
import type { AlertRepository } from '../store/index.js';
import type { AlertNews } from './alert-json.js';

/**
 * What a webhook receives (a JSON POST): the event and the alert after it, and `id`, the same as
 * the `Idempotency-Key` header: one per event, kept across retries, so a receiver drops what it
 * has seen. Every URL gets the same `id` for the same event.
 */
export function webhookPayload(id: string, news: AlertNews): string {
  return JSON.stringify({ id, event: news.event, alert: news.alert });
}

/** Inside the transaction that made the events: one outbox row per event and URL, committed with them. */
export async function enqueueNotifications(
  alerts: Pick<AlertRepository, 'enqueue'>,
  urls: readonly string[],
  events: readonly AlertNews[],
  now: number,
): Promise<void> {
  if (urls.length === 0 || events.length === 0) return;
  const rows = events.flatMap((news) => {
    const id = randomUUID();
    const payload = webhookPayload(id, news);
    return urls.map((url) => ({ alert_id: news.alert.alert_id, url, idempotency_key: id, payload, created_at: now }));
  });
  await alerts.enqueue(rows);
}

import type { AlertKind, AlertSeverity } from '../domain/alert.js';
import type { Repositories, StoredActuator } from '../store/index.js';
import { type AlertNews, alertOf } from './alert-json.js';
import { enqueueNotifications } from './outbox.js';

/**
 * The alerts about an actuator (docs/api.md §14, §15): `lockout`, `limit`, `controller_offline`, `stock_low`. They name
 * the actuator and no sensor; their prototype is the actuator's sensor's. At most one is active
 * per actuator and kind (the schema's partial index, across instances too). Each change is made
 * inside the caller's transaction with its webhook notifications; the caller publishes the news
 * once committed.
 */

export interface ActuatorAlertDeps {
  webhookUrls: readonly string[];
}

export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/.test(e?.message ?? '');
}

async function prototypeOf(tx: Repositories, actuator: Pick<StoredActuator, 'sensor_id'>): Promise<number | null> {
  return (await tx.sensors.get(actuator.sensor_id))?.prototype_id ?? null;
}

/**
 * Raises the actuator's alert of `kind` unless one is active; the news, or undefined. `value` is
 * the figure that raised it, where there is one (the stock left, for `stock_low`).
 */
export async function raiseActuatorAlert(
  tx: Repositories,
  { webhookUrls }: ActuatorAlertDeps,
  actuator: Pick<StoredActuator, 'actuator_id' | 'sensor_id'>,
  kind: AlertKind,
  severity: AlertSeverity,
  at: number,
  value: number | null = null,
): Promise<AlertNews | undefined> {
  if (await tx.alerts.activeOfActuator(actuator.actuator_id, kind)) return undefined;
  const row = await tx.alerts.raise({
    sensor_id: null,
    actuator_id: actuator.actuator_id,
    kind,
    severity,
    raised_at: at,
    value,
    peak: null,
  });
  const news: AlertNews = { event: 'raised', alert: alertOf(row, await prototypeOf(tx, actuator)) };
  await enqueueNotifications(tx.alerts, webhookUrls, [news], at);
  return news;
}

/**
 * Clears the actuator's active alert of `kind`, if any; the news, or undefined. With
 * `acknowledgedBy` (an unlock), records who ended it.
 */
export async function clearActuatorAlert(
  tx: Repositories,
  { webhookUrls }: ActuatorAlertDeps,
  actuatorId: number,
  kind: AlertKind,
  at: number,
  ended?: { by: string | null },
): Promise<AlertNews | undefined> {
  const active = await tx.alerts.activeOfActuator(actuatorId, kind);
  if (!active) return undefined;
  if (ended) await tx.alerts.acknowledgeAs(active.alert_id, at, ended.by);
  const row = await tx.alerts.change(active.alert_id, { state: 'cleared', cleared_at: at });
  const news: AlertNews = { event: 'cleared', alert: alertOf(row, active.prototype_id) };
  await enqueueNotifications(tx.alerts, webhookUrls, [news], at);
  return news;
}

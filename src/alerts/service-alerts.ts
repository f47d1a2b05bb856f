import type { ChangeBus } from '../core/bus.js';
import type { Alert, AlertKind, AlertSeverity } from '../domain/alert.js';
import type { Store } from '../store/index.js';
import { type AlertNews, alertOf } from './alert-json.js';
import { enqueueNotifications } from './outbox.js';

export interface ServiceAlertDeps {
  store: Store;
  bus: ChangeBus;
  now: () => number;
  webhookUrls: readonly string[];
}

/**
 * The service's own alerts (a failed backup): about no sensor and no actuator, at most one active
 * per kind (the schema's partial index, across instances too). Each change is committed with its
 * webhook notifications and then published, so the event stream and MQTT carry it like any alert.
 */
export function serviceAlerts({ store, bus, now, webhookUrls }: ServiceAlertDeps) {
  const record = async (change: (at: number) => Promise<AlertNews | undefined>): Promise<Alert | undefined> => {
    const at = now();
    const news = await change(at);
    if (news) bus.publish('alert', news);
    return news?.alert;
  };

  return {
    /** Raises an alert of `kind` unless one is active already; the alert raised, or undefined. */
    raise(kind: AlertKind, severity: AlertSeverity): Promise<Alert | undefined> {
      return record(async (at) => {
        try {
          return await store.transaction(async (tx) => {
            if (await tx.alerts.activeOfService(kind)) return undefined;
            const row = await tx.alerts.raise({
              sensor_id: null,
              actuator_id: null,
              kind,
              severity,
              raised_at: at,
              value: null,
              peak: null,
            });
            const news: AlertNews = { event: 'raised', alert: alertOf(row, null) };
            await enqueueNotifications(tx.alerts, webhookUrls, [news], at);
            return news;
          });
        } catch (error) {
          // Another instance raised it between our read and insert: the unique index kept it to one.
          if (await store.alerts.activeOfService(kind)) return undefined;
          throw error;
        }
      });
    },

    /** Clears the active alert of `kind`, if any; the alert cleared, or undefined. */
    clear(kind: AlertKind): Promise<Alert | undefined> {
      return record((at) =>
        store.transaction(async (tx) => {
          const active = await tx.alerts.activeOfService(kind);
          if (!active) return undefined;
          const row = await tx.alerts.change(active.alert_id, { state: 'cleared', cleared_at: at });
          const news: AlertNews = { event: 'cleared', alert: alertOf(row, null) };
          await enqueueNotifications(tx.alerts, webhookUrls, [news], at);
          return news;
        }),
      );
    },

    /** Whether an alert of `kind` is active now. */
    async active(kind: AlertKind): Promise<boolean> {
      return (await store.alerts.activeOfService(kind)) !== undefined;
    },
  };
}

export type ServiceAlerts = ReturnType<typeof serviceAlerts>;

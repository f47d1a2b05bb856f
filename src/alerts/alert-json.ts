import type { Alert, AlertEvent } from '../domain/alert.js';
import type { StoredAlert } from '../store/index.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A stored alert as the API shows it, with its sensor's prototype (null without a sensor). */
export function alertOf(row: StoredAlert, prototypeId: number | null): Alert {
  return {
    alert_id: row.alert_id,
    sensor_id: row.sensor_id,
    actuator_id: row.actuator_id,
    prototype_id: prototypeId,
    kind: row.kind,
    severity: row.severity,
    state: row.state,
    raised_at: new Date(row.raised_at).toISOString(),
    cleared_at: iso(row.cleared_at),
    acknowledged_at: iso(row.acknowledged_at),
    acknowledged_by: row.acknowledged_by,
    value: row.value,
    peak: row.peak,
    last_value: row.last_value,
  };
}

/** One alert event, as the bus, the event stream and the webhooks carry it. */
export interface AlertNews {
  event: AlertEvent;
  alert: Alert;
}

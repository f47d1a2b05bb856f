import type { Actuator, Alert, Sensor } from '../api/types';
import { actuatorName, sensorName } from './labels';

/**
 * A list of alerts as alert events change it: the changed alert replaces its older self, and
 * stays only when the list's filter keeps it (an active-only list loses it when it clears).
 * Newest first, as the service lists them.
 */
export function applyAlertChange(alerts: readonly Alert[], changed: Alert, keeps: (alert: Alert) => boolean): Alert[] {
  const others = alerts.filter((alert) => alert.alert_id !== changed.alert_id);
  if (!keeps(changed)) return others;
  const at = others.findIndex((alert) => alert.alert_id < changed.alert_id);
  return at < 0 ? [...others, changed] : [...others.slice(0, at), changed, ...others.slice(at)];
}

/** The alerts of the grower's records (docs/api.md §15) in words. */
const RECORD_KINDS: Record<string, string> = {
  stock_low: 'bottle running low: refill it',
  calibration_due: 'calibration due',
};

/** "critically high", "low", "stale": what the alert is about, in words. */
export function alertKindText(alert: Pick<Alert, 'kind' | 'severity'>): string {
  if (alert.kind === 'stale') return 'no recent reading';
  if (alert.kind === 'backup') return 'no recent good backup';
  const records = RECORD_KINDS[alert.kind];
  if (records) return records;
  if (alert.kind !== 'low' && alert.kind !== 'high') return alert.kind.replace(/_/g, ' ');
  return alert.severity === 'critical' ? `critically ${alert.kind}` : alert.kind;
}

/**
 * Which figures an alert carries: a sensor's readings (the value that raised it, the furthest and
 * the latest), the stock left when a bottle ran low (§15), or none (a stale sensor, a lockout, a
 * calibration due: nothing was measured).
 */
export function alertFigures(alert: Pick<Alert, 'kind' | 'value'>): 'readings' | 'stock' | null {
  if (alert.value === null || alert.kind === 'stale') return null;
  return alert.kind === 'stock_low' ? 'stock' : 'readings';
}

/**
 * What an alert is about, by the grower's names: its sensor ("pH #2", or the name given), else its
 * actuator, else the service itself (a failed backup). An id alone only for one the page does not
 * know (of another tank, or deleted since).
 */
export function alertSubject(
  alert: Pick<Alert, 'sensor_id' | 'actuator_id'>,
  sensors: readonly Sensor[],
  actuators: readonly Actuator[] = [],
): string {
  const sensor = alert.sensor_id !== null ? sensors.find((s) => s.sensor_id === alert.sensor_id) : undefined;
  if (sensor) return sensorName(sensor);
  const actuator = alert.actuator_id !== null ? actuators.find((a) => a.actuator_id === alert.actuator_id) : undefined;
  if (actuator) return actuatorName(actuator);
  if (alert.sensor_id !== null) return `Sensor #${alert.sensor_id}`;
  if (alert.actuator_id !== null) return `Actuator #${alert.actuator_id}`;
  return 'Service';
}

/** The paging cursor for the next (older) page: the last alert's id, or none when the page was not full. */
export function nextBefore(page: readonly Alert[], limit: number): number | undefined {
  return page.length < limit ? undefined : page.at(-1)?.alert_id;
}

/** "(2) sensorhub": the page title shows how many alerts are active across every tank. */
export function pageTitle(activeCount: number, base = 'sensorhub'): string {
  return activeCount > 0 ? `(${activeCount}) ${base}` : base;
}

/** A browser notification is due when an alert is raised critical, or escalates to critical. */
export function notifiesOf(change: { event: string; alert: Pick<Alert, 'severity' | 'state'> }): boolean {
  return (
    (change.event === 'raised' || change.event === 'escalated') && change.alert.severity === 'critical' && change.alert.state === 'active'
  );
}

/** Critical alerts before warnings, each group newest first: what cannot wait is read first. */
export function criticalFirst<T extends Pick<Alert, 'alert_id' | 'severity'>>(alerts: readonly T[]): T[] {
  const rank = (alert: T) => (alert.severity === 'critical' ? 0 : 1);
  return [...alerts].sort((a, b) => rank(a) - rank(b) || b.alert_id - a.alert_id);
}

/** The tank an alert is about, by its name; "Tank #7" for one the page does not know, null for the service's own. */
export function alertTank(alert: Pick<Alert, 'prototype_id'>, prototypes: readonly { prototype_id: number; prototype_name: string }[]) {
  if (alert.prototype_id === null) return null;
  return prototypes.find((p) => p.prototype_id === alert.prototype_id)?.prototype_name ?? `Tank #${alert.prototype_id}`;
}

/**
 * A browser notification's title and body: what, on which tank, about which pump or sensor. Two
 * tanks may each have an "Acid pump #1": the tank's name tells them apart.
 */
export function notificationText(
  alert: Pick<Alert, 'kind' | 'severity' | 'last_value'>,
  tank: string | null,
  subject: string,
): { title: string; body: string } {
  const value = alert.last_value !== null && alert.last_value !== undefined ? `, value ${alert.last_value}` : '';
  const where = tank ? `${tank}: ` : '';
  return { title: `Critical: ${where}${subject}, ${alertKindText(alert)}`, body: `${where}${subject} — ${alertKindText(alert)}${value}` };
}

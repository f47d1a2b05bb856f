import { useEffect, useState } from 'preact/hooks';
import { api } from '../api/endpoints';
import type { Alert } from '../api/types';
import { alertSubject, alertTank, applyAlertChange, notificationText, notifiesOf, pageTitle } from '../domain/alerts';
import { useLive } from '../live';

/** The most the service lists at once (docs/api.md §11); a farm with more has other troubles. */
const ACTIVE_LIMIT = 1000;

/**
 * The active alerts of every tank (no prototype filter), kept current by one event stream: the
 * count goes to the page title and the Alerts tab, and a new critical alert to a browser
 * notification when the grower allowed them.
 */
export function useActiveAlerts(available: boolean): Alert[] {
  const [alerts, setAlerts] = useState<Alert[]>([]);
  const read = () => {
    if (!available) return;
    api.alerts({ state: 'active', limit: ACTIVE_LIMIT }).then(setAlerts, () => {});
  };
  useEffect(read, [available]);
  useLive(
    available ? {} : null,
    {
      alert: (change) => {
        setAlerts((current) => applyAlertChange(current, change.alert, (alert) => alert.state === 'active'));
        if (notifiesOf(change)) void notify(change.alert);
      },
      reset: read,
    },
    available,
  );
  useEffect(() => {
    document.title = pageTitle(alerts.length);
  }, [alerts.length]);
  return alerts;
}

async function notify(alert: Alert): Promise<void> {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  // Named as on the Alerts page: the alert may be of any tank, so its tank and its sensors and pumps are read.
  const tank = alert.prototype_id;
  const [prototype, sensors, actuators] =
    tank === null
      ? [null, [], []]
      : await Promise.all([api.prototype(tank).catch(() => null), api.sensors(tank).catch(() => []), api.actuators(tank).catch(() => [])]);
  const tankName = alertTank(alert, prototype ? [prototype] : []);
  const { title, body } = notificationText(alert, tankName, alertSubject(alert, sensors, actuators));
  // One notification per alert: an escalation replaces the earlier one (same tag).
  new Notification(title, { body, tag: `sensorhub-alert-${alert.alert_id}` });
}

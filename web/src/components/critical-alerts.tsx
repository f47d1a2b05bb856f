import type { Alert, Prototype } from '../api/types';
import { alertKindText, alertSubject, alertTank, criticalFirst } from '../domain/alerts';
import { useTankParts } from '../state/tank-parts';

interface Props {
  /** The active alerts of every tank. */
  alerts: readonly Alert[];
  prototypes: readonly Prototype[];
  /** A tank whose alerts the page already lists at its top (the overview of that tank): left out here. */
  listedTank?: number;
  /** Shows that tank's alerts. */
  onShow: (prototypeId: number | null) => void;
}

/**
 * The critical alerts of every tank, above whatever page is open: a pump locked out in one tank
 * is seen from the charts of another, on a phone too, without scrolling. Each names its tank.
 */
export function CriticalAlerts({ alerts, prototypes, listedTank, onShow }: Props) {
  const critical = criticalFirst(
    alerts.filter((a) => a.severity === 'critical' && (listedTank === undefined || a.prototype_id !== listedTank)),
  );
  const { sensors, actuators } = useTankParts(critical);
  if (critical.length === 0) return null;
  return (
    <aside aria-label="Critical alerts" class="critical-alerts">
      <ul>
        {critical.map((alert) => {
          const tank = alertTank(alert, prototypes);
          const subject = alertSubject(alert, sensors, actuators);
          return (
            <li key={alert.alert_id} data-alert-id={alert.alert_id}>
              <span class="badge tone-critical">critical</span>{' '}
              <span class="critical-text">
                {tank && <strong>{tank}</strong>}
                {tank && ' · '}
                {subject}: {alertKindText(alert)}
              </span>{' '}
              <button type="button" class="ghost" onClick={() => onShow(alert.prototype_id)}>
                Show
                <span class="visually-hidden">
                  : {tank ? `${tank}, ` : ''}
                  {subject}, {alertKindText(alert)}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </aside>
  );
}

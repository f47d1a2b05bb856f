import { api } from '../api/endpoints';
import type { Alert, Sensor } from '../api/types';
import { ActionProblem, useAction } from './action';
import { useDashboard } from '../context';
import { alertFigures, alertKindText } from '../domain/alerts';
import { sensorName } from '../domain/labels';
import { mlText } from '../domain/volumes';
import { timeSince } from '../domain/time';
import { displayFor, formatValue } from '../domain/units';

interface Props {
  alerts: Alert[];
  sensors: Sensor[];
  nowMs: number;
  /** The acknowledged alert, as the service answered it. */
  onChange: (alert: Alert) => void;
}

/** Alerts, newest first, each with what raised it and an acknowledge button while nobody has. */
export function AlertList({ alerts, sensors, nowMs, onChange }: Props) {
  return (
    <ul class="alerts">
      {alerts.map((alert) => (
        <AlertItem
          key={alert.alert_id}
          alert={alert}
          sensor={sensors.find((s) => s.sensor_id === alert.sensor_id)}
          nowMs={nowMs}
          onChange={onChange}
        />
      ))}
    </ul>
  );
}

function AlertItem({ alert, sensor, nowMs, onChange }: { alert: Alert; sensor?: Sensor; nowMs: number; onChange: (alert: Alert) => void }) {
  const { canModify, prefs } = useDashboard();
  const { busy, problem, act } = useAction();
  const display = sensor ? displayFor(sensor.sensor_unit, prefs) : { unit: '', convert: (v: number) => v };
  const value = (v: number | null) => (v === null ? '—' : `${formatValue(display.convert(v))} ${display.unit}`.trim());
  // An alert may be about an actuator or about the service itself (a failed backup).
  const name = sensor
    ? sensorName(sensor)
    : alert.sensor_id !== null
      ? `Sensor #${alert.sensor_id}`
      : alert.actuator_id !== null
        ? `Actuator #${alert.actuator_id}`
        : 'Service';
  const tone = alert.state === 'cleared' ? 'unknown' : alert.severity;
  const figures = alertFigures(alert);

  const acknowledge = () => act('acknowledge', async () => onChange(await api.acknowledgeAlert(alert.alert_id)));

  return (
    <li class={`card alert tone-${tone}`} data-alert-id={alert.alert_id} data-state={alert.state}>
      <div class="card-head">
        <h3>
          {name}: {alertKindText(alert)}
        </h3>
        <span class={`badge tone-${tone}`}>{alert.state === 'cleared' ? 'cleared' : alert.severity}</span>
      </div>
      <p class="meta">
        Raised <time dateTime={alert.raised_at}>{timeSince(alert.raised_at, nowMs)}</time>
        {alert.cleared_at && (
          <>
            {' '}
            · cleared <time dateTime={alert.cleared_at}>{timeSince(alert.cleared_at, nowMs)}</time>
          </>
        )}
        {figures === 'readings' && (
          <>
            {' '}
            · value {value(alert.value)}, furthest {value(alert.peak)}, latest {value(alert.last_value)}
          </>
        )}
        {figures === 'stock' && alert.value !== null && <> · {mlText(alert.value)} left when raised</>}
      </p>
      <div class="actions">
        {alert.acknowledged_at ? (
          <span class="muted acknowledged">
            Acknowledged {alert.acknowledged_by ? `by ${alert.acknowledged_by} ` : ''}
            <time dateTime={alert.acknowledged_at}>{timeSince(alert.acknowledged_at, nowMs)}</time>
          </span>
        ) : alert.state === 'cleared' ? (
          // Over without anyone answering it: nothing left to acknowledge.
          <span class="muted">Not acknowledged</span>
        ) : (
          <button
            type="button"
            class="ghost"
            disabled={!canModify || busy}
            onClick={acknowledge}
            aria-label={`Acknowledge: ${name}, ${alertKindText(alert)}`}
          >
            Acknowledge
          </button>
        )}
        <ActionProblem problem={problem} />
      </div>
    </li>
  );
}

import { useEffect, useRef } from 'preact/hooks';
import { api } from '../api/endpoints';
import type { Actuator, Alert, Sensor } from '../api/types';
import { ActionProblem, useAction } from './action';
import { focusOutcome } from './focus';
import { When } from './when';
import { useDashboard } from '../context';
import { alertFigures, alertKindText, alertSubject } from '../domain/alerts';
import { mlText } from '../domain/volumes';
import { displayFor, formatValue } from '../domain/units';

interface Props {
  alerts: Alert[];
  sensors: Sensor[];
  /** The tank's actuators, to name the alerts about them. */
  actuators?: Actuator[];
  nowMs: number;
  /** The acknowledged alert, as the service answered it. */
  onChange: (alert: Alert) => void;
  /** The name of each alert's tank, where the list holds more than one tank's. */
  tankOf?: (alert: Alert) => string | null;
}

/** Alerts, newest first, each with what raised it and an acknowledge button while nobody has. */
export function AlertList({ alerts, sensors, actuators = [], nowMs, onChange, tankOf }: Props) {
  return (
    <ul class="alerts">
      {alerts.map((alert) => (
        <AlertItem
          key={alert.alert_id}
          alert={alert}
          sensor={sensors.find((s) => s.sensor_id === alert.sensor_id)}
          name={alertSubject(alert, sensors, actuators)}
          tank={tankOf?.(alert) ?? null}
          nowMs={nowMs}
          onChange={onChange}
        />
      ))}
    </ul>
  );
}

interface ItemProps {
  alert: Alert;
  sensor?: Sensor;
  name: string;
  tank: string | null;
  nowMs: number;
  onChange: (alert: Alert) => void;
}

function AlertItem({ alert, sensor, name, tank, nowMs, onChange }: ItemProps) {
  const { canModify, prefs } = useDashboard();
  const { busy, problem, act } = useAction();
  // The Acknowledge button gives way to who acknowledged it: focus goes there, not to the top of the page.
  const acknowledgedByMe = useRef(false);
  const outcome = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    if (!alert.acknowledged_at || !acknowledgedByMe.current) return;
    acknowledgedByMe.current = false;
    focusOutcome(outcome.current);
  }, [alert.acknowledged_at]);
  const display = sensor ? displayFor(sensor.sensor_unit, prefs) : { unit: '', convert: (v: number) => v };
  const value = (v: number | null) => (v === null ? '—' : `${formatValue(display.convert(v))} ${display.unit}`.trim());
  const tone = alert.state === 'cleared' ? 'unknown' : alert.severity;
  const figures = alertFigures(alert);

  const acknowledge = () =>
    act('acknowledge', async () => {
      // Set first: the stream's acknowledgement may arrive before the answer.
      acknowledgedByMe.current = true;
      try {
        onChange(await api.acknowledgeAlert(alert.alert_id));
      } catch (error) {
        acknowledgedByMe.current = false;
        throw error;
      }
    });

  return (
    <li class={`card alert tone-${tone}`} data-alert-id={alert.alert_id} data-state={alert.state}>
      <div class="card-head">
        <h3>
          {tank && <span class="alert-tank">{tank} · </span>}
          {name}: {alertKindText(alert)}
        </h3>
        <span class={`badge tone-${tone}`}>{alert.state === 'cleared' ? 'cleared' : alert.severity}</span>
      </div>
      <p class="meta">
        Raised <When at={alert.raised_at} nowMs={nowMs} both />
        {alert.cleared_at && (
          <>
            {' '}
            · cleared <When at={alert.cleared_at} nowMs={nowMs} both />
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
          <span class="muted acknowledged" ref={outcome} tabIndex={-1}>
            Acknowledged {alert.acknowledged_by ? `by ${alert.acknowledged_by} ` : ''}
            <When at={alert.acknowledged_at} nowMs={nowMs} />
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
            aria-label={`Acknowledge: ${tank ? `${tank}, ` : ''}${name}, ${alertKindText(alert)}`}
          >
            Acknowledge
          </button>
        )}
        <ActionProblem problem={problem} />
      </div>
    </li>
  );
}

import { useCallback, useEffect, useState } from 'preact/hooks';
import { api } from '../api/endpoints';
import type { Actuator, Alert, AlertQuery, Sensor } from '../api/types';
import { AlertList } from '../components/alert-list';
import { AlertReach } from '../components/alert-reach';
import { SelectField } from '../components/fields';
import { useDashboard } from '../context';
import { applyAlertChange, nextBefore } from '../domain/alerts';
import { sensorName } from '../domain/labels';
import { useLive } from '../live';
import { useNow } from '../state/clock';

/** Alerts read per page; "Older alerts" reads the next one (`before` the oldest shown). */
export const ALERT_PAGE = 50;

type StateFilter = NonNullable<AlertQuery['state']>;
const STATES: { value: StateFilter; label: string }[] = [
  { value: 'active', label: 'Active' },
  { value: 'cleared', label: 'Cleared' },
  { value: 'all', label: 'All' },
];

/** The prototype's alerts, newest first, filtered by state and sensor, kept current by the event stream. */
export function AlertsPage() {
  const { prototype, settings } = useDashboard();
  const [sensors, setSensors] = useState<Sensor[]>([]);
  const [actuators, setActuators] = useState<Actuator[]>([]);
  const [state, setState] = useState<StateFilter>('active');
  const [sensorId, setSensorId] = useState<number | 'all'>('all');
  const [alerts, setAlerts] = useState<Alert[] | null>(null);
  const [before, setBefore] = useState<number | undefined>(undefined);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const nowMs = useNow(10_000);
  const available = settings.features?.alerts ?? false;
  const query: AlertQuery = {
    state,
    prototype_id: prototype.prototype_id,
    sensor_id: sensorId === 'all' ? undefined : sensorId,
    limit: ALERT_PAGE,
  };
  const keeps = (alert: Alert) => (state === 'all' || alert.state === state) && (sensorId === 'all' || alert.sensor_id === sensorId);

  useEffect(() => {
    api.sensors(prototype.prototype_id).then(setSensors, () => setSensors([]));
    // To name the alerts about a pump; without them it is named by its id.
    api.actuators(prototype.prototype_id).then(setActuators, () => setActuators([]));
  }, [prototype.prototype_id]);

  /** Reads the first page again, or the next older one. */
  const read = useCallback(
    async (older?: number) => {
      if (!available) return;
      setBusy(true);
      try {
        const page = (await api.alerts({ ...query, before: older })) ?? [];
        setAlerts((current) => (older === undefined ? page : [...(current ?? []), ...page]));
        setBefore(nextBefore(page, ALERT_PAGE));
        setFailure(null);
      } catch (error) {
        setFailure((error as Error).message);
      } finally {
        setBusy(false);
      }
    },
    [available, state, sensorId, prototype.prototype_id],
  );
  useEffect(() => {
    setAlerts(null);
    void read();
  }, [read]);

  useLive(
    available ? { prototypeId: prototype.prototype_id } : null,
    {
      alert: (change) => setAlerts((current) => current && applyAlertChange(current, change.alert, keeps)),
      reset: () => void read(),
    },
    prototype.prototype_id,
  );

  if (!available) return <p class="muted">This service does not report alerts.</p>;

  const sensorOptions = [
    { value: 'all' as const, label: 'All sensors' },
    ...sensors.map((s) => ({ value: s.sensor_id, label: sensorName(s) })),
  ];
  return (
    <div class="alerts-page" data-loaded={alerts ? 'true' : undefined}>
      <AlertReach />
      <div class="alert-filters card">
        <SelectField label="State" name="state" errors={{}} value={state} options={STATES} onValue={setState} />
        <SelectField<number | 'all'>
          label="Sensor"
          name="sensor"
          errors={{}}
          value={sensorId}
          options={sensorOptions}
          onValue={setSensorId}
        />
      </div>
      {failure && (
        <p class="error" role="alert">
          Could not read the alerts: {failure}
        </p>
      )}
      {!alerts && !failure && <p class="loading">Loading…</p>}
      {alerts && alerts.length === 0 && <p class="muted">No {state === 'all' ? '' : `${state} `}alert.</p>}
      {alerts && (
        <AlertList
          alerts={alerts}
          sensors={sensors}
          actuators={actuators}
          nowMs={nowMs}
          onChange={(alert) => setAlerts((current) => current && applyAlertChange(current, alert, keeps))}
        />
      )}
      {before !== undefined && (
        <div class="actions">
          <button type="button" class="ghost" disabled={busy} onClick={() => void read(before)}>
            Older alerts
          </button>
        </div>
      )}
    </div>
  );
}

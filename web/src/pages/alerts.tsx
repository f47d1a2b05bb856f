import { useCallback, useEffect, useState } from 'preact/hooks';
import { api } from '../api/endpoints';
import type { Actuator, Alert, AlertQuery, Sensor } from '../api/types';
import { AlertList } from '../components/alert-list';
import { AlertReach } from '../components/alert-reach';
import { SelectField } from '../components/fields';
import { useDashboard } from '../context';
import { alertTank, applyAlertChange, nextBefore } from '../domain/alerts';
import { sensorName } from '../domain/labels';
import { useLive } from '../live';
import { useNow } from '../state/clock';
import { useTankParts } from '../state/tank-parts';

/** Alerts read per page; "Older alerts" reads the next one (`before` the oldest shown). */
export const ALERT_PAGE = 50;

type StateFilter = NonNullable<AlertQuery['state']>;
const STATES: { value: StateFilter; label: string }[] = [
  { value: 'active', label: 'Active' },
  { value: 'cleared', label: 'Cleared' },
  { value: 'all', label: 'All' },
];

/**
 * Alerts, newest first, of every tank (each naming its tank) or of the tank on screen, filtered by
 * state and sensor, kept current by the event stream.
 */
export function AlertsPage() {
  const { prototype, prototypes, settings } = useDashboard();
  const [sensors, setSensors] = useState<Sensor[]>([]);
  const [actuators, setActuators] = useState<Actuator[]>([]);
  const [state, setState] = useState<StateFilter>('active');
  const [sensorId, setSensorId] = useState<number | 'all'>('all');
  // Every tank by default: the count in the title and on the tab is of every tank.
  const [tank, setTank] = useState<number | 'all'>('all');
  const [alerts, setAlerts] = useState<Alert[] | null>(null);
  const [before, setBefore] = useState<number | undefined>(undefined);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const nowMs = useNow(10_000);
  const available = settings.features?.alerts ?? false;
  const everyTank = tank === 'all';
  const query: AlertQuery = {
    state,
    prototype_id: everyTank ? undefined : tank,
    sensor_id: sensorId === 'all' ? undefined : sensorId,
    limit: ALERT_PAGE,
  };
  const keeps = (alert: Alert) =>
    (state === 'all' || alert.state === state) &&
    (everyTank || alert.prototype_id === tank) &&
    (sensorId === 'all' || alert.sensor_id === sensorId);
  // The other tanks' sensors and pumps, to name their alerts.
  const others = useTankParts((alerts ?? []).filter((alert) => alert.prototype_id !== prototype.prototype_id));

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
    [available, state, sensorId, tank, prototype.prototype_id],
  );
  useEffect(() => {
    setAlerts(null);
    void read();
  }, [read]);

  useLive(
    available ? (everyTank ? {} : { prototypeId: prototype.prototype_id }) : null,
    {
      alert: (change) => setAlerts((current) => current && applyAlertChange(current, change.alert, keeps)),
      reset: () => void read(),
    },
    `${prototype.prototype_id} ${tank}`,
  );

  if (!available) return <p class="muted">This service does not report alerts.</p>;

  const tankOptions = [
    { value: 'all' as const, label: 'All tanks' },
    { value: prototype.prototype_id, label: `${prototype.prototype_name} only` },
  ];
  const sensorOptions = [
    { value: 'all' as const, label: 'All sensors' },
    // This tank's: a sensor belongs to one tank, so choosing one shows that tank's alerts alone.
    ...sensors.map((s) => ({ value: s.sensor_id, label: sensorName(s) })),
  ];
  return (
    <div class="alerts-page" data-loaded={alerts ? 'true' : undefined}>
      <AlertReach />
      <div class="alert-filters card">
        <SelectField<number | 'all'> label="Tank" name="tank" errors={{}} value={tank} options={tankOptions} onValue={setTank} />
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
          sensors={[...sensors, ...others.sensors]}
          actuators={[...actuators, ...others.actuators]}
          tankOf={everyTank ? (alert) => alertTank(alert, prototypes) : undefined}
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

import { useCallback, useEffect, useState } from 'preact/hooks';
import { api } from '../api/endpoints';
import type { Actuator, ActuatorState, Alert, Measurement, Sensor } from '../api/types';
import { ActuatorCard, type ActuatorDoses } from '../components/actuator-card';
import { AlertList } from '../components/alert-list';
import { PauseControl } from '../components/pause-control';
import { SensorCalibration } from '../components/sensor-calibration';
import { ConnectButton } from '../components/connect-panel';
import { sensorConnect } from '../domain/connect';
import { Sparkline } from '../components/sparkline';
import { useDashboard } from '../context';
import { applyAlertChange, criticalFirst } from '../domain/alerts';
import { pauseLeftMs } from '../domain/dosing';
import { sensorName } from '../domain/labels';
import { dropBefore, foldReading, rawColumns, type SeriesColumns } from '../domain/live-series';
import { isStale, LEVEL_LABELS, type ReportedLevel, severityOf, valueLevel } from '../domain/levels';
import { localDateTimeZoned } from '../domain/local-time';
import { timeSince } from '../domain/time';
import { displayFor, formatValue } from '../domain/units';
import { type ActuatorChange, useLive } from '../live';
import { hrefOf } from '../router';
import { useNow } from '../state/clock';

const DAY_MS = 86_400_000;
/** Points for a sparkline 240 px wide: one per couple of pixels is all it can show. */
const SPARKLINE_POINTS = 120;
/** Live readings fold into buckets of this width: the sparkline stays about 240 points long. */
const SPARKLINE_BUCKET_SEC = DAY_MS / 1000 / SPARKLINE_POINTS;
/** "12 s ago" and staleness follow the clock between events. */
const CLOCK_MS = 10_000;

interface SensorView {
  sensor: Sensor;
  last: Measurement | null;
  /** The level the service reported for `last`; the page computes it when there is none. */
  reported?: ReportedLevel;
}
/** The last day of each sensor, by sensor id: read apart from the values, which must not wait for it. */
type Days = Map<number, SeriesColumns>;
interface ActuatorView {
  actuator: Actuator;
  state: ActuatorState;
}
interface Snapshot {
  sensors: SensorView[];
  actuators: ActuatorView[];
  /** Active alerts of the prototype; null when the service has no alerts. */
  alerts: Alert[] | null;
  /** The prototype's pause (docs/api.md §14): null when dosing is on. */
  pausedUntil: string | null;
  /** Each actuator's recent doses, by actuator id. */
  doses: Map<number, ActuatorDoses>;
}

/** At most this many doses of the last 24 h are read per actuator (the service's page limit). */
const DOSES_READ = 1000;

/** The newest doses read per actuator: what the service learns a dose's effect from. */
const NEWEST_READ = 200;

/**
 * The newest doses (for the effect, and whether it ever ran) and the last day's: one request
 * when the newest already reach back a day, else a second for the day.
 */
async function loadDoses(actuatorId: number): Promise<ActuatorDoses> {
  const recent = await api.activations(actuatorId, { limit: NEWEST_READ });
  const dayStart = Date.now() - DAY_MS;
  const oldest = recent.at(-1);
  const coversDay = recent.length < NEWEST_READ || (oldest !== undefined && Date.parse(oldest.activated_at) < dayStart);
  const day = coversDay
    ? recent.filter((dose) => Date.parse(dose.activated_at) >= dayStart)
    : await api.activations(actuatorId, { start_time: new Date(dayStart).toISOString(), limit: DOSES_READ });
  return { day, newest: recent[0] ?? null, recent };
}

async function loadAllDoses(actuators: ActuatorView[]): Promise<Map<number, ActuatorDoses>> {
  const ids = actuators.map((view) => view.actuator.actuator_id);
  return new Map(await Promise.all(ids.map(async (id) => [id, await loadDoses(id)] as const)));
}

/** A run report moves last_activated: the dose it recorded is added here, without reading it back. */
function withReportedDose(doses: ActuatorDoses | undefined, before: Actuator | undefined, after: Actuator): ActuatorDoses | undefined {
  if (!doses || !before || Date.parse(after.last_activated) <= Date.parse(before.last_activated)) return doses;
  const dose = {
    activation_id: 0,
    actuator_id: after.actuator_id,
    activated_at: after.last_activated,
    duration: after.activation_duration,
    value_before: null,
    answered: null,
    response: null,
    reversed: null,
    volume_ml: null,
    reported: true,
    manual: false,
  };
  return { day: [dose, ...doses.day], newest: dose, recent: [dose, ...doses.recent] };
}

/** The service lists at most this many at once; a tank with more has other troubles. */
const ALERTS_READ = 1000;

/** Every active alert of the tank: its sensors' and its pumps'. */
const tankAlerts = (prototypeId: number) => api.alerts({ state: 'active', prototype_id: prototypeId, limit: ALERTS_READ });

async function loadSnapshot(prototypeId: number, features: { alerts: boolean; prototype_status: boolean }): Promise<Snapshot> {
  if (features.prototype_status) {
    // One request: each sensor with its newest reading, level and active alerts, each actuator with its decision.
    // The status lists the sensors' alerts only: the pumps' (a lockout, a limit) are read beside it.
    const [status, alerts] = await Promise.all([api.prototypeStatus(prototypeId), features.alerts ? tankAlerts(prototypeId) : null]);
    return {
      sensors: status.sensors.map((entry) => ({ sensor: entry.sensor, last: entry.last_measurement, reported: entry.level ?? undefined })),
      actuators: status.actuators,
      alerts,
      pausedUntil: status.prototype.paused_until,
      doses: await loadAllDoses(status.actuators),
    };
  }
  const [sensors, actuators, alerts, prototype] = await Promise.all([
    api.sensors(prototypeId),
    api.actuators(prototypeId),
    features.alerts ? tankAlerts(prototypeId) : null,
    api.prototype(prototypeId),
  ]);
  const sensorViews = Promise.all(sensors.map(async (sensor) => ({ sensor, last: await api.lastMeasurement(sensor.sensor_id) })));
  const actuatorViews = Promise.all(
    actuators.map(async (actuator) => ({ actuator, state: await api.actuatorState(actuator.actuator_id) })),
  );
  const actuatorList = await actuatorViews;
  return {
    sensors: await sensorViews,
    actuators: actuatorList,
    alerts,
    pausedUntil: prototype.paused_until,
    doses: await loadAllDoses(actuatorList),
  };
}

async function loadDays(sensors: Sensor[]): Promise<Days> {
  const days = await Promise.all(
    sensors.map(async (sensor) => {
      const day = await api.measurements(sensor.sensor_id, { time_delta: 'P1D', max_points: SPARKLINE_POINTS });
      return [sensor.sensor_id, rawColumns(day)] as const;
    }),
  );
  return new Map(days);
}

/** The newest of a sensor's readings, if newer than what is shown. */
function newest(current: Measurement | null, incoming: Measurement[]): Measurement | null {
  let best = current;
  for (const m of incoming) if (!best || Date.parse(m.timestamp) >= Date.parse(best.timestamp)) best = m;
  return best;
}

/**
 * Each sensor's newest value and last day, each pump's decision, the active alerts: the page a
 * grower checks first. Loaded once, then kept current by the event stream.
 */
export function OverviewPage() {
  const { prototype, settings } = useDashboard();
  const features = settings.features ?? { alerts: false, prototype_status: false };
  const [snapshot, setSnapshot] = useState<Snapshot | null>(null);
  const [days, setDays] = useState<Days>(new Map());
  const [failure, setFailure] = useState<string | null>(null);
  const nowMs = useNow(CLOCK_MS);

  const load = useCallback(async () => {
    try {
      const next = await loadSnapshot(prototype.prototype_id, features);
      setSnapshot(next);
      setFailure(null);
      // The sparklines follow; the values are already on screen.
      setDays(await loadDays(next.sensors.map((view) => view.sensor)));
    } catch (error) {
      setFailure((error as Error).message);
    }
  }, [prototype.prototype_id]);

  useEffect(() => {
    setSnapshot(null);
    setDays(new Map());
    void load();
  }, [load]);

  const update = (change: (current: Snapshot) => Snapshot) => setSnapshot((current) => current && change(current));

  useLive(
    { prototypeId: prototype.prototype_id },
    {
      measurements: (incoming) => {
        update((current) => ({
          ...current,
          sensors: current.sensors.map((view) => {
            const mine = incoming.filter((m) => m.sensor_id === view.sensor.sensor_id);
            const last = mine.length > 0 ? newest(view.last, mine) : view.last;
            return last === view.last ? view : { sensor: view.sensor, last };
          }),
        }));
        setDays((current) => {
          const next = new Map(current);
          const startSec = (Date.now() - DAY_MS) / 1000;
          for (const m of incoming) {
            const day = next.get(m.sensor_id);
            if (!day) continue;
            const copy = { times: [...day.times], values: [...day.values] };
            foldReading(copy, Date.parse(m.timestamp) / 1000, m.value, SPARKLINE_BUCKET_SEC);
            dropBefore(copy, startSec);
            next.set(m.sensor_id, copy);
          }
          return next;
        });
      },
      actuator: (change) =>
        update((current) => {
          if ('deleted' in change) return { ...current, actuators: applyActuatorChange(current.actuators, change) };
          const id = change.actuator.actuator_id;
          const before = current.actuators.find((view) => view.actuator.actuator_id === id)?.actuator;
          const doses = new Map(current.doses);
          const next = withReportedDose(doses.get(id), before, change.actuator);
          if (next) doses.set(id, next);
          // A new actuator: no dose yet, so it never ran.
          else if (!before) doses.set(id, { day: [], newest: null, recent: [] });
          return { ...current, actuators: applyActuatorChange(current.actuators, change), doses };
        }),
      prototype: (change) => {
        if ('deleted' in change || change.prototype_id !== prototype.prototype_id) return;
        update((current) => ({ ...current, pausedUntil: change.paused_until }));
      },
      sensor: (change) => {
        if ('deleted' in change) {
          update((current) => ({ ...current, sensors: current.sensors.filter((view) => view.sensor.sensor_id !== change.deleted) }));
          return;
        }
        // A new sensor, or one moved here from another prototype: its readings are not on screen yet.
        const known = snapshot?.sensors.some((view) => view.sensor.sensor_id === change.sensor_id);
        if (!known || change.prototype_id !== prototype.prototype_id) return void load();
        // New thresholds: the level the service reported is computed again here.
        update((current) => ({
          ...current,
          sensors: current.sensors.map((view) => (view.sensor.sensor_id === change.sensor_id ? { sensor: change, last: view.last } : view)),
        }));
      },
      alert: (change) =>
        update((current) => ({
          ...current,
          alerts: current.alerts && applyAlertChange(current.alerts, change.alert, (alert) => alert.state === 'active'),
        })),
      reset: () => void load(),
    },
    prototype.prototype_id,
  );

  const acknowledged = (alert: Alert) =>
    update((current) => ({ ...current, alerts: current.alerts && applyAlertChange(current.alerts, alert, (a) => a.state === 'active') }));

  return (
    <div class="overview" data-loaded={snapshot ? 'true' : undefined}>
      {failure && (
        <p class="error" role="alert">
          Could not refresh: {failure}
        </p>
      )}
      {!snapshot && !failure && <p class="loading">Loading…</p>}
      {snapshot && (
        <>
          {snapshot.alerts && snapshot.alerts.length > 0 && (
            <section aria-labelledby="alerts-heading">
              <h2 id="alerts-heading">Active alerts</h2>
              <AlertList
                alerts={criticalFirst(snapshot.alerts)}
                sensors={snapshot.sensors.map((view) => view.sensor)}
                actuators={snapshot.actuators.map((view) => view.actuator)}
                nowMs={nowMs}
                onChange={acknowledged}
              />
            </section>
          )}
          <section aria-labelledby="sensors-heading">
            <h2 id="sensors-heading">Sensors</h2>
            {snapshot.sensors.length === 0 && (
              <p>
                This tank has no sensor yet. <a href={hrefOf('settings')}>Add a sensor in Settings</a>, then connect its device.
              </p>
            )}
            <ul class="cards">
              {snapshot.sensors.map((view) => (
                <SensorCard key={view.sensor.sensor_id} view={view} day={days.get(view.sensor.sensor_id)} nowMs={nowMs} />
              ))}
            </ul>
          </section>
          <section aria-labelledby="actuators-heading">
            <h2 id="actuators-heading">Actuators</h2>
            <PauseControl
              pausedUntil={snapshot.pausedUntil}
              onChange={(pausedUntil) => update((current) => ({ ...current, pausedUntil }))}
            />
            {snapshot.actuators.length === 0 && (
              <p class="muted">
                No pump follows this tank's sensors yet
                {snapshot.sensors.length > 0 && (
                  <>
                    {' '}
                    (<a href={hrefOf('settings')}>add one in Settings</a>)
                  </>
                )}
                .
              </p>
            )}
            <ul class="cards actuator-cards">
              {snapshot.actuators.map((view) => (
                <ActuatorCard
                  key={view.actuator.actuator_id}
                  actuator={view.actuator}
                  state={view.state}
                  doses={snapshot.doses.get(view.actuator.actuator_id)}
                  sensor={snapshot.sensors.find((s) => s.sensor.sensor_id === view.actuator.sensor_id)}
                  paused={pauseLeftMs(snapshot.pausedUntil, nowMs) !== null}
                  nowMs={nowMs}
                  onChanged={(actuator) =>
                    update((current) => ({
                      ...current,
                      actuators: current.actuators.map((v) => (v.actuator.actuator_id === actuator.actuator_id ? { ...v, actuator } : v)),
                    }))
                  }
                />
              ))}
            </ul>
          </section>
        </>
      )}
    </div>
  );
}

/** An actuator event: its new self and decision, a new one added, a deleted one removed. */
function applyActuatorChange(views: ActuatorView[], change: ActuatorChange | { deleted: number }): ActuatorView[] {
  if ('deleted' in change) return views.filter((view) => view.actuator.actuator_id !== change.deleted);
  const next = { actuator: change.actuator, state: change.state };
  const at = views.findIndex((view) => view.actuator.actuator_id === change.actuator.actuator_id);
  if (at >= 0) return views.map((view, i) => (i === at ? next : view));
  return [...views, next].sort((a, b) => a.actuator.actuator_id - b.actuator.actuator_id);
}

function SensorCard({ view, day, nowMs }: { view: SensorView; day?: SeriesColumns; nowMs: number }) {
  const { prefs, settings } = useDashboard();
  const { sensor, last, reported } = view;
  const display = displayFor(sensor.sensor_unit, prefs);
  const stale = reported === 'stale' || (last ? isStale(last.timestamp, nowMs, settings.stale_after_seconds) : false);
  const level = reported && reported !== 'stale' ? reported : last ? valueLevel(last.value, sensor) : null;
  const tone = !last || stale ? 'unknown' : severityOf(level ?? 'ok');
  const name = sensorName(sensor);
  return (
    <li class={`card sensor tone-${tone}`} data-sensor-id={sensor.sensor_id}>
      <div class="card-head">
        <h3>{name}</h3>
        <span class={`badge tone-${tone}`}>{!last ? 'no data' : stale ? 'stale' : LEVEL_LABELS[level ?? 'ok']}</span>
      </div>
      <p class="reading">
        {last ? (
          <>
            <span class="value" data-value={last.value}>
              {formatValue(display.convert(last.value))}
            </span>{' '}
            <span class="unit">{display.unit}</span>
          </>
        ) : (
          <span class="value muted">—</span>
        )}
      </p>
      {day ? (
        <Sparkline series={day} startMs={nowMs - DAY_MS} endMs={nowMs} label={`${name}, last 24 hours`} />
      ) : (
        <p class="sparkline-empty muted">Loading the last 24 h…</p>
      )}
      <p class="meta">
        {last ? (
          <time dateTime={last.timestamp} title={localDateTimeZoned(last.timestamp)}>
            {stale ? 'Stale: last reading ' : 'Last reading '}
            {timeSince(last.timestamp, nowMs)}
          </time>
        ) : (
          'No measurement yet: connect its device.'
        )}
      </p>
      <SensorCalibration sensor={sensor} nowMs={nowMs} />
      <ConnectButton
        title={name}
        info={() => sensorConnect(location.origin, sensor, settings.mqtt_prefix, settings.auth_mode === 'enforced')}
      />
    </li>
  );
}

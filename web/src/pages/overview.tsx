import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api/endpoints';
import type { Actuator, ActuatorState, Measurement, Sensor } from '../api/types';
import { Sparkline } from '../components/sparkline';
import { useDashboard } from '../context';
import { actuatorName, CONDITION_LABELS, sensorName } from '../domain/labels';
import { isStale, LEVEL_LABELS, levelOf, severityOf } from '../domain/levels';
import { timeSince } from '../domain/time';
import { displayFor, formatValue } from '../domain/units';
import { useLive } from '../live';

const DAY_MS = 86_400_000;
/** Points for a sparkline 240 px wide: one per couple of pixels is all it can show. */
const SPARKLINE_POINTS = 120;
/** A day drawn in 120 points moves by one point in 12 minutes: its refresh need not follow every value's. */
const SPARKLINE_REFRESH_MS = 60_000;

interface SensorView {
  sensor: Sensor;
  last: Measurement | null;
}
/** The last day of each sensor, by sensor id: read apart from the values, which must not wait for it. */
type Days = Map<number, Measurement[]>;
interface ActuatorView {
  actuator: Actuator;
  state: ActuatorState;
}
interface Snapshot {
  sensors: SensorView[];
  actuators: ActuatorView[];
  nowMs: number;
}

async function loadSnapshot(prototypeId: number): Promise<Snapshot> {
  const nowMs = Date.now();
  const [sensors, actuators] = await Promise.all([api.sensors(prototypeId), api.actuators(prototypeId)]);
  const sensorViews = Promise.all(sensors.map(async (sensor) => ({ sensor, last: await api.lastMeasurement(sensor.sensor_id) })));
  const actuatorViews = Promise.all(
    actuators.map(async (actuator) => ({ actuator, state: await api.actuatorState(actuator.actuator_id) })),
  );
  return { sensors: await sensorViews, actuators: await actuatorViews, nowMs };
}

async function loadDays(sensors: Sensor[]): Promise<Days> {
  const days = await Promise.all(
    sensors.map(async (sensor) => {
      const day = await api.measurements(sensor.sensor_id, { time_delta: 'P1D', max_points: SPARKLINE_POINTS });
      return [sensor.sensor_id, day] as const;
    }),
  );
  return new Map(days);
}

/** Each sensor's newest value and last day, each pump's decision: the page a grower checks first. */
export function OverviewPage() {
  const { prototype } = useDashboard();
  const [snapshot, setSnapshot] = useState<Snapshot | null>(null);
  const [days, setDays] = useState<Days>(new Map());
  const daysRead = useRef({ at: 0, sensors: '' });
  const [failure, setFailure] = useState<string | null>(null);

  const refresh = useCallback(async () => {
    try {
      const next = await loadSnapshot(prototype.prototype_id);
      setSnapshot(next);
      setFailure(null);
      // The sparklines follow; the values are already on screen.
      const sensorIds = next.sensors.map((view) => view.sensor.sensor_id).join();
      if (Date.now() - daysRead.current.at >= SPARKLINE_REFRESH_MS || daysRead.current.sensors !== sensorIds) {
        daysRead.current = { at: Date.now(), sensors: sensorIds };
        setDays(await loadDays(next.sensors.map((view) => view.sensor)));
      }
    } catch (error) {
      setFailure((error as Error).message);
    }
  }, [prototype.prototype_id]);

  useEffect(() => {
    setSnapshot(null);
    setDays(new Map());
    daysRead.current = { at: 0, sensors: '' };
    void refresh();
  }, [refresh]);
  useLive(refresh, prototype.prototype_id);

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
          <section aria-labelledby="sensors-heading">
            <h2 id="sensors-heading">Sensors</h2>
            {snapshot.sensors.length === 0 && <p class="muted">This prototype has no sensors yet.</p>}
            <ul class="cards">
              {snapshot.sensors.map((view) => (
                <SensorCard key={view.sensor.sensor_id} view={view} day={days.get(view.sensor.sensor_id)} nowMs={snapshot.nowMs} />
              ))}
            </ul>
          </section>
          <section aria-labelledby="actuators-heading">
            <h2 id="actuators-heading">Actuators</h2>
            {snapshot.actuators.length === 0 && <p class="muted">No actuator uses this prototype's sensors.</p>}
            <ul class="cards">
              {snapshot.actuators.map((view) => (
                <ActuatorCard key={view.actuator.actuator_id} view={view} nowMs={snapshot.nowMs} />
              ))}
            </ul>
          </section>
        </>
      )}
    </div>
  );
}

function SensorCard({ view, day, nowMs }: { view: SensorView; day?: Measurement[]; nowMs: number }) {
  const { prefs, settings } = useDashboard();
  const { sensor, last } = view;
  const display = displayFor(sensor.sensor_unit, prefs);
  const stale = last ? isStale(last.timestamp, nowMs, settings.stale_after_seconds) : false;
  const level = last ? levelOf(last.value, sensor) : null;
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
        <Sparkline points={day} startMs={nowMs - DAY_MS} endMs={nowMs} label={`${name}, last 24 hours`} />
      ) : (
        <p class="sparkline-empty muted">Loading the last 24 h…</p>
      )}
      <p class="meta">
        {last ? (
          <time dateTime={last.timestamp} title={new Date(last.timestamp).toLocaleString()}>
            {stale ? 'Stale: last reading ' : 'Last reading '}
            {timeSince(last.timestamp, nowMs)}
          </time>
        ) : (
          'No measurement yet'
        )}
      </p>
    </li>
  );
}

function ActuatorCard({ view, nowMs }: { view: ActuatorView; nowMs: number }) {
  const { actuator, state } = view;
  const condition =
    actuator.activation_condition === 'always'
      ? 'always'
      : `${CONDITION_LABELS[actuator.activation_condition]} ${actuator.condition_value}`;
  const tone = !actuator.enabled ? 'unknown' : state.activate ? 'active' : 'ok';
  return (
    <li class={`card actuator tone-${tone}`} data-actuator-id={actuator.actuator_id}>
      <div class="card-head">
        <h3>{actuatorName(actuator)}</h3>
        <span class={`badge tone-${tone}`}>{!actuator.enabled ? 'disabled' : state.activate ? 'run now' : 'idle'}</span>
      </div>
      <dl class="facts">
        <dt>Decision</dt>
        <dd class="decision">{decisionText(state)}</dd>
        <dt>Rule</dt>
        <dd>
          sensor #{actuator.sensor_id}, {condition}; runs {state.duration} s, at most every {state.period} s
        </dd>
        <dt>Last run</dt>
        <dd>
          <time dateTime={actuator.last_activated}>{timeSince(actuator.last_activated, nowMs)}</time>
        </dd>
        <dt>Enabled</dt>
        <dd>{actuator.enabled ? 'yes' : 'no'}</dd>
      </dl>
    </li>
  );
}

/** The service's reason, in words: "OK" only says the condition itself was evaluated. */
function decisionText(state: ActuatorState): string {
  if (state.status !== 'OK') return `Wait: ${state.status}`;
  return state.activate ? 'Run now: condition met' : 'Wait: condition not met';
}

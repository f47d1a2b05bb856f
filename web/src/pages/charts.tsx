import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api } from '../api/endpoints';
import type { Measurement, Sensor } from '../api/types';
import { type ChartSeries, TimeChart } from '../components/time-chart';
import { useDashboard } from '../context';
import { thresholdBands } from '../domain/bands';
import { sensorName } from '../domain/labels';
import { fromLocalInput, PRESET_RANGES, type PresetId, presetRange, type TimeRange, toLocalInput } from '../domain/time';
import { displayFor } from '../domain/units';

type Choice = { preset: PresetId } | { custom: TimeRange };

/** The number of points to ask for: about one per horizontal pixel of the chart. */
function pointsFor(element: HTMLElement | null): number {
  return Math.max(100, Math.round(element?.clientWidth ?? 800));
}

/** History of one or more sensors on one time axis, any range, drag to zoom in. */
export function ChartsPage() {
  const { prototype, prefs } = useDashboard();
  const [sensors, setSensors] = useState<Sensor[] | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  const [bandsFor, setBandsFor] = useState<number | null>(null);
  const [choice, setChoice] = useState<Choice>({ preset: '24h' });
  const [readings, setReadings] = useState<{ range: TimeRange; bySensor: Map<number, Measurement[]> } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const area = useRef<HTMLDivElement>(null);

  useEffect(() => {
    api.sensors(prototype.prototype_id).then((list) => {
      setSensors(list);
      setSelected(list.slice(0, 1).map((s) => s.sensor_id));
      setBandsFor(list[0]?.sensor_id ?? null);
    }, (error: Error) => setFailure(error.message));
  }, [prototype.prototype_id]);

  useEffect(() => {
    if (!sensors) return;
    const range = 'preset' in choice ? presetRange(choice.preset, Date.now()) : choice.custom;
    const maxPoints = pointsFor(area.current);
    let current = true;
    Promise.all(
      selected.map(async (id) => {
        const points = await api.measurements(id, {
          start_time: new Date(range.startMs).toISOString(),
          end_time: new Date(range.endMs).toISOString(),
          max_points: maxPoints,
        });
        return [id, points] as const;
      }),
    ).then(
      (pairs) => {
        if (!current) return;
        setReadings({ range, bySensor: new Map(pairs) });
        setFailure(null);
      },
      (error: Error) => current && setFailure(error.message),
    );
    return () => {
      current = false;
    };
  }, [sensors, selected, choice]);

  const series = useMemo<ChartSeries[]>(() => {
    if (!sensors || !readings) return [];
    return selected.flatMap((id) => {
      const sensor = sensors.find((s) => s.sensor_id === id);
      const points = readings.bySensor.get(id);
      if (!sensor || !points) return [];
      const display = displayFor(sensor.sensor_unit, prefs);
      return [
        {
          key: String(id),
          label: sensorName(sensor),
          unit: display.unit,
          times: points.map((p) => Date.parse(p.timestamp) / 1000),
          values: points.map((p) => display.convert(p.value)),
        },
      ];
    });
  }, [sensors, readings, selected, prefs]);

  const bands = useMemo(() => {
    const sensor = sensors?.find((s) => s.sensor_id === bandsFor && selected.includes(s.sensor_id));
    if (!sensor) return undefined;
    return { seriesKey: String(sensor.sensor_id), thresholds: thresholdBands(sensor, displayFor(sensor.sensor_unit, prefs).convert) };
  }, [sensors, bandsFor, selected, prefs]);

  const toggle = (id: number, on: boolean) => {
    const next = on ? [...selected, id].sort((a, b) => a - b) : selected.filter((s) => s !== id);
    setSelected(next);
    if (on && (bandsFor === null || !selected.includes(bandsFor))) setBandsFor(id);
  };

  const points = readings ? [...readings.bySensor.values()].reduce((sum, list) => sum + list.length, 0) : 0;

  return (
    <div class="charts">
      {failure && (
        <p class="error" role="alert">
          Could not load the history: {failure}
        </p>
      )}
      <div class="chart-controls card">
        <fieldset class="sensor-choice">
          <legend>Sensors</legend>
          {sensors?.map((sensor) => (
            <label key={sensor.sensor_id} class="check">
              <input
                type="checkbox"
                checked={selected.includes(sensor.sensor_id)}
                onChange={(e) => toggle(sensor.sensor_id, e.currentTarget.checked)}
              />
              {sensorName(sensor)}
            </label>
          ))}
        </fieldset>
        <fieldset class="ranges">
          <legend>Range</legend>
          <div class="segmented">
            {PRESET_RANGES.map((preset) => (
              <button
                key={preset.id}
                type="button"
                aria-pressed={'preset' in choice && choice.preset === preset.id}
                onClick={() => setChoice({ preset: preset.id })}
              >
                {preset.label}
              </button>
            ))}
          </div>
          <CustomRange
            current={readings?.range}
            active={'custom' in choice}
            onApply={(range) => setChoice({ custom: range })}
          />
        </fieldset>
        {selected.length > 0 && (
          <label class="field inline">
            <span>Threshold bands for</span>
            <select value={bandsFor ?? ''} onChange={(e) => setBandsFor(Number(e.currentTarget.value))}>
              {selected.map((id) => {
                const sensor = sensors?.find((s) => s.sensor_id === id);
                return (
                  <option key={id} value={id}>
                    {sensor ? sensorName(sensor) : `#${id}`}
                  </option>
                );
              })}
            </select>
          </label>
        )}
      </div>
      <div class="card chart-card" ref={area}>
        {selected.length === 0 ? (
          <p class="muted">Choose one or more sensors.</p>
        ) : readings ? (
          <TimeChart
            series={series}
            startMs={readings.range.startMs}
            endMs={readings.range.endMs}
            bands={bands}
            onZoom={(startMs, endMs) => setChoice({ custom: { startMs, endMs } })}
          />
        ) : (
          <p class="loading">Loading…</p>
        )}
        {readings && (
          <p class="muted chart-note" data-points={points}>
            {new Date(readings.range.startMs).toLocaleString()} – {new Date(readings.range.endMs).toLocaleString()} · {points} points
            (at most one per pixel) · drag across the chart to zoom in.
            {bands && <> Shaded: warning (amber) and critical (red) zones.</>}
          </p>
        )}
      </div>
    </div>
  );
}

function CustomRange({ current, active, onApply }: { current?: TimeRange; active: boolean; onApply: (range: TimeRange) => void }) {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [error, setError] = useState<string | null>(null);
  // The inputs follow what is shown (a zoom fills them in), and can then be edited.
  useEffect(() => {
    if (!current) return;
    setFrom(toLocalInput(current.startMs));
    setTo(toLocalInput(current.endMs));
  }, [current?.startMs, current?.endMs]);

  const apply = (event: Event) => {
    event.preventDefault();
    const startMs = fromLocalInput(from);
    const endMs = fromLocalInput(to);
    if (!Number.isFinite(startMs) || !Number.isFinite(endMs)) return setError('Give both a start and an end.');
    if (startMs >= endMs) return setError('The start must be before the end.');
    setError(null);
    onApply({ startMs, endMs });
  };

  return (
    <form class={`custom-range${active ? ' active' : ''}`} onSubmit={apply}>
      <label class="field inline">
        <span>From</span>
        <input type="datetime-local" value={from} onInput={(e) => setFrom(e.currentTarget.value)} />
      </label>
      <label class="field inline">
        <span>To</span>
        <input type="datetime-local" value={to} onInput={(e) => setTo(e.currentTarget.value)} />
      </label>
      <button type="submit" aria-pressed={active}>
        Custom range
      </button>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

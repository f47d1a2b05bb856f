import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api } from '../api/endpoints';
import type { Actuator, Measurement, Sensor } from '../api/types';
import { useChartNotes } from '../components/chart-notes';
import { type ChartSeries, TimeChart } from '../components/time-chart';
import { useDashboard } from '../context';
import { thresholdBands } from '../domain/bands';
import { doseTicks } from '../domain/dosing';
import { sensorName } from '../domain/labels';
import { localDateTime, zoneLabel } from '../domain/local-time';
import { aggregateColumns, bucketWidthSec, dropBefore, foldReading, rawColumns, type SeriesColumns } from '../domain/live-series';
import { fromLocalInput, PRESET_RANGES, type PresetId, presetRange, type TimeRange, toLocalInput } from '../domain/time';
import { displayFor } from '../domain/units';
import { useLive } from '../live';

type Choice = { preset: PresetId } | { custom: TimeRange };

/** From this span on, a chart reads the service's buckets (§10): a min–max band and the mean, never the raw rows. */
export const AGGREGATE_FROM_MS = 7 * 86_400_000;

interface Readings {
  /** What is shown: the range read, or, while live, the same span ending now. */
  range: TimeRange;
  /** The range read from the service. */
  loaded: TimeRange;
  bySensor: Map<number, SeriesColumns>;
  /** Live readings fold into buckets of this width (seconds), per sensor: about one pixel. */
  bucketSec: Map<number, number>;
  aggregate: boolean;
  /** The doses of the actuators each sensor decides, in chart seconds, by sensor id. */
  doses: Map<number, number[]>;
}

/** At most this many doses of one actuator are marked on a chart (the service's page limit). */
const DOSES_READ = 1000;

/** The doses of the actuators deciding on `sensorId` within the range, as chart ticks; none where they cannot be read. */
async function loadDoseTicks(sensorId: number, actuators: Actuator[], range: TimeRange): Promise<number[]> {
  const mine = actuators.filter((actuator) => actuator.sensor_id === sensorId);
  const query = { start_time: new Date(range.startMs).toISOString(), end_time: new Date(range.endMs).toISOString(), limit: DOSES_READ };
  const lists = await Promise.all(mine.map((actuator) => api.activations(actuator.actuator_id, query).catch(() => [])));
  return doseTicks(lists.flat(), range.startMs, range.endMs);
}

/** The number of points to ask for: about one per horizontal pixel of the chart. */
function pointsFor(element: HTMLElement | null): number {
  return Math.max(100, Math.round(element?.clientWidth ?? 800));
}

async function loadSensor(id: number, range: TimeRange, maxPoints: number, aggregate: boolean): Promise<[SeriesColumns, number]> {
  const window = {
    start_time: new Date(range.startMs).toISOString(),
    end_time: new Date(range.endMs).toISOString(),
    max_points: maxPoints,
  };
  const pixelSec = (range.endMs - range.startMs) / 1000 / maxPoints;
  if (!aggregate) return [rawColumns(await api.measurements(id, window)), pixelSec];
  const buckets = await api.aggregate(id, window);
  return [aggregateColumns(buckets), bucketWidthSec(buckets, pixelSec)];
}

/** History of one or more sensors on one time axis, any range, drag to zoom in; live while the range ends now. */
export function ChartsPage() {
  const { prototype, prefs } = useDashboard();
  const [sensors, setSensors] = useState<Sensor[] | null>(null);
  const [actuators, setActuators] = useState<Actuator[]>([]);
  const [selected, setSelected] = useState<number[]>([]);
  const [bandsFor, setBandsFor] = useState<number | null>(null);
  const [choice, setChoice] = useState<Choice>({ preset: '24h' });
  const [readings, setReadings] = useState<Readings | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  /** Moved on by a `reset` event: the range is read again. */
  const [generation, setGeneration] = useState(0);
  const area = useRef<HTMLDivElement>(null);
  const pending = useRef<Measurement[]>([]);
  const frame = useRef<number | null>(null);

  useEffect(() => {
    // The actuators, for their doses; without them the chart is drawn all the same.
    const reading = api.actuators(prototype.prototype_id).catch(() => [] as Actuator[]);
    api.sensors(prototype.prototype_id).then(
      async (list) => {
        setActuators(await reading);
        setSensors(list);
        setSelected(list.slice(0, 1).map((s) => s.sensor_id));
        setBandsFor(list[0]?.sensor_id ?? null);
      },
      (error: Error) => setFailure(error.message),
    );
  }, [prototype.prototype_id]);

  useEffect(() => {
    if (!sensors) return;
    const range = 'preset' in choice ? presetRange(choice.preset, Date.now()) : choice.custom;
    const maxPoints = pointsFor(area.current);
    const aggregate = range.endMs - range.startMs >= AGGREGATE_FROM_MS;
    let current = true;
    pending.current = [];
    Promise.all(
      selected.map(
        async (id) => [id, await loadSensor(id, range, maxPoints, aggregate), await loadDoseTicks(id, actuators, range)] as const,
      ),
    ).then(
      (loaded) => {
        if (!current) return;
        setReadings({
          range,
          loaded: range,
          aggregate,
          bySensor: new Map(loaded.map(([id, [columns]]) => [id, columns])),
          bucketSec: new Map(loaded.map(([id, [, width]]) => [id, width])),
          doses: new Map(loaded.map(([id, , ticks]) => [id, ticks])),
        });
        setFailure(null);
      },
      (error: Error) => current && setFailure(error.message),
    );
    return () => {
      current = false;
    };
  }, [sensors, selected, choice, generation]);

  // Live while the range ends now: readings are gathered and drawn once per frame, however fast they come.
  const liveSpan = 'preset' in choice ? (PRESET_RANGES.find((p) => p.id === choice.preset)?.ms ?? null) : null;
  const { notes, changed: notesChanged } = useChartNotes(prototype.prototype_id, readings?.loaded, liveSpan !== null);
  const flush = () => {
    frame.current = null;
    const incoming = pending.current;
    pending.current = [];
    if (liveSpan === null) return;
    setReadings((current) => {
      if (!current) return current;
      const endMs = Date.now();
      const range = { startMs: endMs - liveSpan, endMs };
      const bySensor = new Map<number, SeriesColumns>();
      for (const [id, columns] of current.bySensor) {
        const mine = incoming.filter((m) => m.sensor_id === id);
        const copy = copyColumns(columns);
        for (const m of mine) foldReading(copy, Date.parse(m.timestamp) / 1000, m.value, current.bucketSec.get(id) ?? 1);
        dropBefore(copy, range.startMs / 1000);
        bySensor.set(id, copy);
      }
      return { ...current, range, bySensor };
    });
  };
  useEffect(
    () => () => {
      if (frame.current !== null) cancelAnimationFrame(frame.current);
    },
    [],
  );
  useLive(
    liveSpan !== null && selected.length > 0 ? { sensorIds: selected } : null,
    {
      measurements: (incoming) => {
        pending.current.push(...incoming);
        frame.current ??= requestAnimationFrame(flush);
      },
      // A note of the tank concerns its sensors' charts: the service sends it on their stream.
      note: notesChanged,
      reset: () => setGeneration((n) => n + 1),
    },
    liveSpan !== null ? selected.join() : null,
  );

  const series = useMemo<ChartSeries[]>(() => {
    if (!sensors || !readings) return [];
    return selected.flatMap((id) => {
      const sensor = sensors.find((s) => s.sensor_id === id);
      const columns = readings.bySensor.get(id);
      if (!sensor || !columns) return [];
      const display = displayFor(sensor.sensor_unit, prefs);
      return [
        {
          key: String(id),
          label: sensorName(sensor),
          unit: display.unit,
          times: columns.times,
          values: columns.values.map(display.convert),
          lows: columns.lows?.map(display.convert),
          highs: columns.highs?.map(display.convert),
          marks: readings.doses.get(id),
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

  const doseCount = readings ? selected.reduce((sum, id) => sum + (readings.doses.get(id)?.length ?? 0), 0) : 0;
  const points = readings ? [...readings.bySensor.values()].reduce((sum, columns) => sum + columns.times.length, 0) : 0;

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
          <CustomRange current={readings?.loaded} active={'custom' in choice} onApply={(range) => setChoice({ custom: range })} />
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
      <div
        class="card chart-card"
        ref={area}
        data-mode={readings ? (readings.aggregate ? 'aggregate' : 'raw') : undefined}
        data-live={liveSpan !== null ? 'true' : undefined}
      >
        {selected.length === 0 ? (
          <p class="muted">Choose one or more sensors.</p>
        ) : readings && series.length > 0 ? (
          // Drawn once the sensors chosen are read: a chart of no series has nothing to align.
          <TimeChart
            series={series}
            startMs={readings.range.startMs}
            endMs={readings.range.endMs}
            bands={bands}
            onZoom={(startMs, endMs) => setChoice({ custom: { startMs, endMs } })}
            notes={notes}
          />
        ) : (
          <p class="loading">Loading…</p>
        )}
        {readings && (
          <p class="muted chart-note" data-points={points}>
            {localDateTime(readings.range.startMs)} – {localDateTime(readings.range.endMs)} ({zoneLabel(readings.range.endMs)}) ·{' '}
            {readings.aggregate
              ? `${points} buckets: the line is each one's mean, the shade its lowest to highest`
              : `${points} points (at most about one per pixel)`}
            {liveSpan !== null && ' · live'} · drag across the chart to zoom in.
            {bands && <> Shaded: warning (amber) and critical (red) zones.</>}
            {doseCount > 0 && (
              <> Ticks along the bottom: {doseCount === 1 ? 'a dose' : `${doseCount} doses`} of the pumps these sensors decide.</>
            )}
            {notes.length > 0 && <> Flags on top: the tank's notes (hover or tap one to read it).</>}
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

function copyColumns(columns: SeriesColumns): SeriesColumns {
  return {
    times: [...columns.times],
    values: [...columns.values],
    ...(columns.counts && columns.lows && columns.highs
      ? { lows: [...columns.lows], highs: [...columns.highs], counts: [...columns.counts] }
      : {}),
  };
}

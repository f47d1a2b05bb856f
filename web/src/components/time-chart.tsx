import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Note } from '../api/records';
import type { ThresholdBand } from '../domain/bands';
import { type PlotBox, sameBox } from '../domain/chart-notes';
import { ChartNotes } from './chart-notes';
import { localDateTimeZoned } from '../domain/local-time';

export interface ChartSeries {
  key: string;
  label: string;
  unit: string;
  /** Seconds since the epoch, ascending. */
  times: number[];
  /** The line: raw values, or each bucket's mean. */
  values: number[];
  /** Each bucket's minimum and maximum, for a series read from aggregates: drawn as a band around the line. */
  lows?: number[];
  highs?: number[];
  /** Instants (seconds) marked as ticks along the bottom in the series' colour: the doses of its pumps. */
  marks?: number[];
}

interface Props {
  series: ChartSeries[];
  /** The window shown, in ms: the x axis spans it even where there is no data. */
  startMs: number;
  endMs: number;
  /** Threshold bands of one series (already in its display unit), drawn behind the lines. */
  bands?: { seriesKey: string; thresholds: ThresholdBand[] };
  /** A drag across the chart selects a range; the page fetches finer data for it. */
  onZoom: (startMs: number, endMs: number) => void;
  height?: number;
  /** The tank's notes, marked over the plot at their time (docs/api.md §15). */
  notes?: readonly Note[];
}

export const CHART_START = 'sensorhub:chart-start';
export const CHART_DRAWN = 'sensorhub:chart-drawn';
/** Set on the chart's element after each drawn frame: the range it shows, for tests and the bench. */
export const DRAWN_ATTRIBUTE = 'data-drawn';
/** Set on the chart's element after each drawn frame: how many dose ticks it drew. */
export const DOSE_TICKS_ATTRIBUTE = 'data-dose-ticks';
/** A dose tick's height in CSS pixels. */
const TICK_PX = 16;

const COLOURS = ['#2563eb', '#d97706', '#059669', '#db2777', '#7c3aed', '#0891b2'];
const BAND_FILL = { warning: 'rgba(245, 158, 11, 0.16)', critical: 'rgba(220, 38, 38, 0.16)' };

/**
 * The series on one time axis: one y scale per series, shown left then right. The chart is built
 * again only when the set of series changes; new data for the same series (a live reading, a
 * range sliding with the clock) is given to the existing chart.
 */
export function TimeChart({ series, startMs, endMs, bands, onZoom, height = 360, notes }: Props) {
  const host = useRef<HTMLDivElement>(null);
  /** Where the plot is drawn and the time it spans, for the note marks laid over it. */
  const [box, setBox] = useState<PlotBox | null>(null);
  const plot = useRef<{ chart: uPlot; drawnWith: ChartSeries[] } | null>(null);
  const zoom = useRef(onZoom);
  zoom.current = onZoom;
  const latest = useRef({ series, startMs, endMs });
  latest.current = { series, startMs, endMs };
  const shape = series.map((s) => `${s.key}|${s.label}|${s.unit}|${s.lows ? 'band' : 'line'}`).join(';');

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const bandScale = bands ? `y-${bands.seriesKey}` : undefined;
    const styles = getComputedStyle(element);
    const ink = styles.getPropertyValue('--muted').trim() || '#555';
    const grid = styles.getPropertyValue('--grid').trim() || 'rgba(0,0,0,0.08)';
    const current = latest.current.series;
    /** The data's extent on a scale, with the minimum–maximum band of the series drawn on it. */
    const widen = (min: number | null, max: number | null, key: string): [number | null, number | null] => {
      const s = latest.current.series.find((one) => one.key === key);
      if (!s?.lows || !s.highs || s.lows.length === 0) return [min, max];
      let low = min ?? Infinity;
      let high = max ?? -Infinity;
      for (const v of s.lows) low = Math.min(low, v);
      for (const v of s.highs) high = Math.max(high, v);
      return [low, high];
    };
    const options: uPlot.Options = {
      width: Math.max(200, element.clientWidth),
      height,
      scales: {
        x: { time: true, range: () => [latest.current.startMs / 1000, latest.current.endMs / 1000] },
        // An aggregate series' scale reaches its band, not only its mean.
        ...Object.fromEntries(
          current
            .filter((s) => s.lows)
            .map((s) => [`y-${s.key}`, { range: (_u: uPlot, min: number, max: number) => padded(widen(min, max, s.key)) }]),
        ),
        // The band series' scale always reaches its critical thresholds, so its zones show.
        ...(bands && bandScale
          ? {
              [bandScale]: {
                range: (_u: uPlot, min: number, max: number) => bandRange(...widen(min, max, bands.seriesKey), bands.thresholds),
              },
            }
          : {}),
      },
      series: [
        // The legend's time under the cursor: local, with seconds and the zone.
        { value: (_u: uPlot, seconds: number | null) => (seconds === null ? '--' : localDateTimeZoned(seconds * 1000)) },
        ...current.map((s, i) => ({
          label: `${s.label} (${s.unit})${s.lows ? ', mean' : ''}`,
          scale: `y-${s.key}`,
          stroke: COLOURS[i % COLOURS.length],
          width: 1.5,
          spanGaps: true,
          points: { show: false },
        })),
      ],
      axes: [
        { stroke: ink, grid: { stroke: grid }, ticks: { stroke: grid } },
        ...current.map((s, i) => ({
          scale: `y-${s.key}`,
          side: i % 2 === 0 ? 3 : 1,
          show: i < 2,
          label: s.unit,
          stroke: COLOURS[i % COLOURS.length],
          grid: { show: i === 0, stroke: grid },
          ticks: { stroke: grid },
          size: 56,
        })),
      ],
      cursor: { drag: { x: true, y: false, setScale: false } },
      legend: { live: true },
      hooks: {
        draw: [
          (u: uPlot) => {
            const { startMs: from, endMs: to } = latest.current;
            element.setAttribute(DRAWN_ATTRIBUTE, `${Math.round(from)}-${Math.round(to)}`);
            u.root.dataset.points = String(latest.current.series.reduce((sum, s) => sum + s.times.length, 0));
            const ticks = latest.current.series.reduce((sum, s, i) => sum + drawMarks(u, s, COLOURS[i % COLOURS.length]), 0);
            element.setAttribute(DOSE_TICKS_ATTRIBUTE, String(ticks));
            const next = plotBox(u, element);
            setBox((current) => (sameBox(current, next) ? current : next));
          },
        ],
        drawClear: [
          (u: uPlot) => {
            if (bands && bandScale) drawBands(u, bandScale, bands.thresholds);
            latest.current.series.forEach((s, i) => drawMinMax(u, s, COLOURS[i % COLOURS.length]));
          },
        ],
        setSelect: [
          (u: uPlot) => {
            if (u.select.width < 4) return;
            const from = u.posToVal(u.select.left, 'x') * 1000;
            const to = u.posToVal(u.select.left + u.select.width, 'x') * 1000;
            u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
            zoom.current(Math.round(from), Math.round(to));
          },
        ],
      },
    };
    // Timed for the performance budget (bench/dashboard.ts): from here to the first drawn frame.
    performance.mark(CHART_START);
    let timed = false;
    options.hooks?.draw?.push(() => {
      if (timed) return;
      timed = true;
      performance.measure(CHART_DRAWN, CHART_START);
    });
    const chart = new uPlot(options, alignedData(current), element);
    plot.current = { chart, drawnWith: current };
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(200, element.clientWidth), height }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
      plot.current = null;
    };
  }, [shape, bands, height]);

  useEffect(() => {
    const current = plot.current;
    if (!current) return;
    if (current.drawnWith === series) {
      // Built with these series just now; only the range may have moved.
      current.chart.setScale('x', { min: startMs / 1000, max: endMs / 1000 });
      return;
    }
    current.drawnWith = series;
    current.chart.setData(alignedData(series));
  }, [series, startMs, endMs]);

  return (
    <div class="chart-frame">
      <div class="chart" ref={host} />
      {notes && <ChartNotes notes={notes} box={box} />}
    </div>
  );
}

/** The plotting area within the chart element, in CSS pixels, and the seconds its x axis spans. */
function plotBox(u: uPlot, element: HTMLElement): PlotBox | null {
  const { min, max } = u.scales.x;
  if (min == null || max == null) return null;
  const outer = element.getBoundingClientRect();
  const plot = u.over.getBoundingClientRect();
  return { left: plot.left - outer.left, top: plot.top - outer.top, width: plot.width, height: plot.height, minSec: min, maxSec: max };
}

function alignedData(series: ChartSeries[]): uPlot.AlignedData {
  // uPlot.join of nothing is undefined, which uPlot cannot draw: no series is an empty time axis.
  if (series.length === 0) return [[]];
  return uPlot.join(series.map((s) => [s.times, s.values] as uPlot.AlignedData));
}

/** The minimum–maximum band of an aggregate series, behind its mean line. */
function drawMinMax(u: uPlot, s: ChartSeries, colour: string): void {
  const { lows, highs, times } = s;
  if (!lows || !highs || times.length === 0) return;
  const scale = `y-${s.key}`;
  const { ctx } = u;
  const { left, top, width, height } = u.bbox;
  ctx.save();
  ctx.beginPath();
  ctx.rect(left, top, width, height);
  ctx.clip();
  ctx.beginPath();
  for (let i = 0; i < times.length; i++) {
    const x = u.valToPos(times[i], 'x', true);
    const y = u.valToPos(highs[i], scale, true);
    if (i === 0) ctx.moveTo(x, y);
    else ctx.lineTo(x, y);
  }
  for (let i = times.length - 1; i >= 0; i--) ctx.lineTo(u.valToPos(times[i], 'x', true), u.valToPos(lows[i], scale, true));
  ctx.closePath();
  ctx.globalAlpha = 0.18;
  ctx.fillStyle = colour;
  ctx.fill();
  ctx.restore();
}

/** The series' marks as short ticks rising from the bottom of the plot; answers how many were inside it. */
function drawMarks(u: uPlot, s: ChartSeries, colour: string): number {
  if (!s.marks || s.marks.length === 0) return 0;
  const { ctx } = u;
  const { left, top, width, height } = u.bbox;
  const bottom = top + height;
  const tick = TICK_PX * devicePixelRatio;
  let drawn = 0;
  ctx.save();
  ctx.strokeStyle = colour;
  ctx.fillStyle = colour;
  ctx.lineWidth = 2.5 * devicePixelRatio;
  ctx.beginPath();
  for (const time of s.marks) {
    const x = u.valToPos(time, 'x', true);
    if (x < left || x > left + width) continue;
    ctx.moveTo(x, bottom);
    ctx.lineTo(x, bottom - tick);
    // A small triangle on top: a dose reads as a marker, not as part of the grid.
    ctx.moveTo(x - tick / 4, bottom - tick);
    ctx.lineTo(x + tick / 4, bottom - tick);
    ctx.lineTo(x, bottom - tick / 2);
    ctx.lineTo(x - tick / 4, bottom - tick);
    drawn++;
  }
  ctx.stroke();
  ctx.fill();
  ctx.restore();
  return drawn;
}

function padded([min, max]: [number | null, number | null]): uPlot.Range.MinMax {
  if (min === null || max === null || !Number.isFinite(min) || !Number.isFinite(max)) return [0, 1];
  const pad = (max - min || Math.abs(max) || 1) * 0.08;
  return [min - pad, max + pad];
}

function bandRange(dataMin: number | null, dataMax: number | null, thresholds: ThresholdBand[]): uPlot.Range.MinMax {
  const edges = thresholds.flatMap((band) => [band.from, band.to]).filter(Number.isFinite);
  const min = Math.min(...edges, dataMin ?? Infinity);
  const max = Math.max(...edges, dataMax ?? -Infinity);
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [0, 1];
  const pad = (max - min || Math.abs(max) || 1) * 0.08;
  return [min - pad, max + pad];
}

/** Warning and critical zones of the band series, as horizontal stripes across the plot. */
function drawBands(u: uPlot, scale: string, thresholds: ThresholdBand[]): void {
  const { ctx } = u;
  const { left, top, width, height } = u.bbox;
  const yScale = u.scales[scale];
  if (yScale?.min == null || yScale.max == null) return;
  ctx.save();
  ctx.beginPath();
  ctx.rect(left, top, width, height);
  ctx.clip();
  for (const band of thresholds) {
    const from = Math.max(band.from, yScale.min);
    const to = Math.min(band.to, yScale.max);
    if (!(to > from)) continue;
    const y1 = u.valToPos(to, scale, true);
    const y2 = u.valToPos(from, scale, true);
    ctx.fillStyle = BAND_FILL[band.severity];
    ctx.fillRect(left, y1, width, y2 - y1);
  }
  ctx.restore();
}

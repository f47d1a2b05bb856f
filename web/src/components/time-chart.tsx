import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { ThresholdBand } from '../domain/bands';

export interface ChartSeries {
  key: string;
  label: string;
  unit: string;
  /** Seconds since the epoch, ascending. */
  times: number[];
  values: number[];
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
}

export const CHART_START = 'sensorhub:chart-start';
export const CHART_DRAWN = 'sensorhub:chart-drawn';

const COLOURS = ['#2563eb', '#d97706', '#059669', '#db2777', '#7c3aed', '#0891b2'];
const BAND_FILL = { warning: 'rgba(245, 158, 11, 0.16)', critical: 'rgba(220, 38, 38, 0.16)' };

/** The series on one time axis: one y scale per series, shown left then right. */
export function TimeChart({ series, startMs, endMs, bands, onZoom, height = 360 }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const zoom = useRef(onZoom);
  zoom.current = onZoom;

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const data = uPlot.join(series.map((s) => [s.times, s.values] as uPlot.AlignedData));
    const bandScale = bands ? `y-${bands.seriesKey}` : undefined;
    const styles = getComputedStyle(element);
    const ink = styles.getPropertyValue('--muted').trim() || '#555';
    const grid = styles.getPropertyValue('--grid').trim() || 'rgba(0,0,0,0.08)';
    const options: uPlot.Options = {
      width: Math.max(200, element.clientWidth),
      height,
      scales: {
        x: { time: true, range: () => [startMs / 1000, endMs / 1000] },
        // The band series' scale always reaches its critical thresholds, so its zones show.
        ...(bands && bandScale ? { [bandScale]: { range: (_u: uPlot, min: number, max: number) => bandRange(min, max, bands.thresholds) } } : {}),
      },
      series: [
        {},
        ...series.map((s, i) => ({
          label: `${s.label} (${s.unit})`,
          scale: `y-${s.key}`,
          stroke: COLOURS[i % COLOURS.length],
          width: 1.5,
          spanGaps: true,
          points: { show: false },
        })),
      ],
      axes: [
        { stroke: ink, grid: { stroke: grid }, ticks: { stroke: grid } },
        ...series.map((s, i) => ({
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
        draw: [],
        drawClear: bands && bandScale ? [(u: uPlot) => drawBands(u, bandScale, bands.thresholds)] : [],
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
    const plot = new uPlot(options, data, element);
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(200, element.clientWidth), height }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [series, startMs, endMs, bands, height]);

  return <div class="chart" ref={host} />;
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

import type { SeriesColumns } from '../domain/live-series';

interface Props {
  series: SeriesColumns;
  startMs: number;
  endMs: number;
  label: string;
}

const WIDTH = 240;
const HEIGHT = 48;

/** A small line of the last day: shape only, so an SVG path is enough (no chart library). */
export function Sparkline({ series, startMs, endMs, label }: Props) {
  const { times, values } = series;
  if (times.length < 2) return <p class="sparkline-empty muted">No readings in the last 24 h</p>;
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    min = Math.min(min, v);
    max = Math.max(max, v);
  }
  const span = max - min || 1;
  const x = (seconds: number) => ((seconds * 1000 - startMs) / (endMs - startMs)) * WIDTH;
  const y = (v: number) => HEIGHT - 2 - ((v - min) / span) * (HEIGHT - 4);
  const d = times.map((t, i) => `${i === 0 ? 'M' : 'L'}${x(t).toFixed(1)},${y(values[i]).toFixed(1)}`).join('');
  return (
    <svg
      class="sparkline"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      preserveAspectRatio="none"
      role="img"
      aria-label={label}
      data-points={times.length}
    >
      <path d={d} fill="none" stroke="currentColor" stroke-width="1.5" vector-effect="non-scaling-stroke" />
    </svg>
  );
}

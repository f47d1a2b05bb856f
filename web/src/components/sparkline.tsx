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
  // One reading is a reading: it is drawn as a dot, never called "no readings" beside "last reading 0 s ago".
  if (times.length === 0) return <p class="sparkline-empty muted">No readings in the last 24 h</p>;
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    min = Math.min(min, v);
    max = Math.max(max, v);
  }
  const flat = max === min;
  const span = max - min || 1;
  const x = (seconds: number) => ((seconds * 1000 - startMs) / (endMs - startMs)) * WIDTH;
  // A flat line (or a lone point) sits in the middle.
  const y = (v: number) => (flat ? HEIGHT / 2 : HEIGHT - 2 - ((v - min) / span) * (HEIGHT - 4));
  const d = times.map((t, i) => `${i === 0 ? 'M' : 'L'}${x(t).toFixed(1)},${y(values[i]).toFixed(1)}`).join('');
  // A lone point: a path of no length, which a round cap draws as a dot.
  const single = times.length === 1;
  return (
    <svg
      class="sparkline"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      preserveAspectRatio="none"
      role="img"
      aria-label={label}
      data-points={times.length}
    >
      <path
        d={single ? `${d}L${x(times[0]).toFixed(1)},${y(values[0]).toFixed(1)}` : d}
        fill="none"
        stroke="currentColor"
        stroke-width={single ? 5 : 1.5}
        stroke-linecap="round"
        vector-effect="non-scaling-stroke"
      />
    </svg>
  );
}

import type { Measurement } from '../api/types';

interface Props {
  points: Measurement[];
  startMs: number;
  endMs: number;
  label: string;
}

const WIDTH = 240;
const HEIGHT = 48;

/** A small line of the last day: shape only, so an SVG path is enough (no chart library). */
export function Sparkline({ points, startMs, endMs, label }: Props) {
  if (points.length < 2) return <p class="sparkline-empty muted">No readings in the last 24 h</p>;
  let min = Infinity;
  let max = -Infinity;
  for (const p of points) {
    min = Math.min(min, p.value);
    max = Math.max(max, p.value);
  }
  const span = max - min || 1;
  const x = (t: string) => ((Date.parse(t) - startMs) / (endMs - startMs)) * WIDTH;
  const y = (v: number) => HEIGHT - 2 - ((v - min) / span) * (HEIGHT - 4);
  const d = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(p.timestamp).toFixed(1)},${y(p.value).toFixed(1)}`).join('');
  return (
    <svg class="sparkline" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" role="img" aria-label={label}>
      <path d={d} fill="none" stroke="currentColor" stroke-width="1.5" vector-effect="non-scaling-stroke" />
    </svg>
  );
}

/**
 * The dashboard's own chart component drawing N synthetic points, for bench/dashboard.ts: the
 * time from creating the chart to its first drawn frame, read from the component's performance
 * marks. Not part of the served dashboard.
 */
import { render } from 'preact';
import { CHART_DRAWN, TimeChart } from '../src/components/time-chart';

const count = Number(new URLSearchParams(location.search).get('points') ?? 100_000);
const endMs = Date.now();
const startMs = endMs - 365 * 86_400_000;
const times = new Array<number>(count);
const values = new Array<number>(count);
let value = 6;
for (let i = 0; i < count; i++) {
  times[i] = (startMs + ((endMs - startMs) * i) / count) / 1000;
  value += (Math.random() - 0.5) * 0.1 + (6 - value) * 0.01;
  values[i] = value;
}
const series = [{ key: '1', label: 'pH #1', unit: 'pH', times, values }];
const bands = {
  seriesKey: '1',
  thresholds: [
    { severity: 'critical' as const, from: -Infinity, to: 4 },
    { severity: 'warning' as const, from: 4, to: 5.5 },
    { severity: 'warning' as const, from: 7, to: 8 },
    { severity: 'critical' as const, from: 8, to: Infinity },
  ],
};

new PerformanceObserver((list, observer) => {
  const drawn = list.getEntriesByName(CHART_DRAWN)[0];
  if (!drawn) return;
  observer.disconnect();
  (window as unknown as { chartDrawMs: number }).chartDrawMs = drawn.duration;
}).observe({ entryTypes: ['measure'] });

render(
  <TimeChart series={series} startMs={startMs} endMs={endMs} bands={bands} onZoom={() => {}} />,
  document.getElementById('chart') as HTMLElement,
);

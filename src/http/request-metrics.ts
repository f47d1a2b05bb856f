/**
 * The per-request series of `/metrics` (count and latency histogram by method, route pattern and
 * status), kept as plain numbers and written in the Prometheus text format when scraped.
 *
 * prom-client's labelled children check and hash their labels on every observation, about 3–5 µs
 * a request here — several per cent of an ingest or polled read — so these two series, the only
 * ones touched per request, are recorded by this module instead; everything else stays in
 * prom-client's registry.
 */

/** Records one answered request of a fixed method, route and status. */
export type RequestObserver = (seconds: number) => void;

interface Series {
  labels: string;
  count: number;
  sum: number;
  /** Observations per bucket (not cumulative), the last one past the largest bound. */
  perBucket: Float64Array;
}

interface Described {
  name: string;
  help: string;
}

const escapeLabel = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

export function requestSeries(counter: Described, histogram: Described & { buckets: readonly number[] }) {
  const bounds = histogram.buckets;
  const all: Series[] = [];
  /** route → status → method → observer, found without building a key per request. */
  const byRoute = new Map<string, Map<number, Map<string, RequestObserver>>>();

  function observer(method: string, route: string, status: number): RequestObserver {
    let byStatus = byRoute.get(route);
    if (!byStatus) byRoute.set(route, (byStatus = new Map()));
    let byMethod = byStatus.get(status);
    if (!byMethod) byStatus.set(status, (byMethod = new Map()));
    let observe = byMethod.get(method);
    if (!observe) {
      const series: Series = {
        labels: `method="${escapeLabel(method)}",route="${escapeLabel(route)}",status="${status}"`,
        count: 0,
        sum: 0,
        perBucket: new Float64Array(bounds.length + 1),
      };
      all.push(series);
      observe = (seconds) => {
        series.count += 1;
        series.sum += seconds;
        let i = 0;
        while (i < bounds.length && seconds > bounds[i]) i++;
        series.perBucket[i] += 1;
      };
      byMethod.set(method, observe);
    }
    return observe;
  }

  /** Both series in the Prometheus text format (0.0.4). */
  function text(): string {
    const lines = [`# HELP ${counter.name} ${counter.help}`, `# TYPE ${counter.name} counter`];
    for (const s of all) lines.push(`${counter.name}{${s.labels}} ${s.count}`);
    lines.push(`# HELP ${histogram.name} ${histogram.help}`, `# TYPE ${histogram.name} histogram`);
    for (const s of all) {
      let cumulative = 0;
      bounds.forEach((bound, i) => {
        cumulative += s.perBucket[i];
        lines.push(`${histogram.name}_bucket{le="${bound}",${s.labels}} ${cumulative}`);
      });
      lines.push(`${histogram.name}_bucket{le="+Inf",${s.labels}} ${s.count}`);
      lines.push(`${histogram.name}_sum{${s.labels}} ${s.sum}`);
      lines.push(`${histogram.name}_count{${s.labels}} ${s.count}`);
    }
    return `${lines.join('\n')}\n`;
  }

  return { observer, text };
}

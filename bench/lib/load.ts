import autocannon from 'autocannon';

export interface LoadResult {
  /** Requests per second (2xx only count as throughput; errors are reported apart). */
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  total: number;
}

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST' | 'PATCH';
  body?: string;
  connections?: number;
  durationS?: number;
}

/** Drives one URL with `connections` concurrent keep-alive connections for `durationS` seconds. */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    body: options.body,
    headers: options.body ? { 'content-type': 'application/json' } : {},
    connections: options.connections ?? 64,
    duration: options.durationS ?? 10,
  });
  const ok = result['2xx'];
  return {
    rps: ok / ((options.durationS ?? 10) || 1),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    total: result.requests.total,
  };
}

export interface Compared {
  service: LoadResult;
  floor: LoadResult;
  /** The median over the rounds of the service's rate divided by the floor's in the same round. */
  ratio: number;
}

/** Requests per second over several slices, with the median p50 and the worst p99. */
function combine(slices: LoadResult[], durationS: number): LoadResult {
  const sum = (pick: (r: LoadResult) => number) => slices.reduce((total, r) => total + pick(r), 0);
  return {
    rps: sum((r) => r.rps * durationS) / (durationS * slices.length),
    p50: median(slices.map((r) => r.p50)),
    p99: Math.max(...slices.map((r) => r.p99)),
    errors: sum((r) => r.errors),
    non2xx: sum((r) => r.non2xx),
    total: sum((r) => r.total),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * The same request against the service and the floor, in alternating slices (floor, service,
 * floor, service…) of `durationS / rounds` seconds each: this machine's speed drifts by tens of
 * percent within a minute, and a slice of each taken side by side sees the same speed. The ratio
 * is the median of the rounds' ratios, so one slice caught in a slow moment does not decide it.
 */
export async function againstFloor(options: LoadOptions & { floorUrl: string; rounds?: number }): Promise<Compared> {
  const rounds = options.rounds ?? 5;
  const sliceS = Math.max(1, Math.round((options.durationS ?? 10) / rounds));
  const floorTarget = new URL(options.url);
  floorTarget.host = new URL(options.floorUrl).host;
  const floor: LoadResult[] = [];
  const service: LoadResult[] = [];
  // A short warm-up of each, not counted: the service's first requests compile its code paths.
  await load({ ...options, durationS: 1 });
  await load({ ...options, url: floorTarget.toString(), durationS: 1 });
  for (let i = 0; i < rounds; i++) {
    floor.push(await load({ ...options, url: floorTarget.toString(), durationS: sliceS }));
    service.push(await load({ ...options, durationS: sliceS }));
  }
  return {
    service: combine(service, sliceS),
    floor: combine(floor, sliceS),
    ratio: median(service.map((s, i) => s.rps / floor[i].rps)),
  };
}

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

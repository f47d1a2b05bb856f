import { describe, expect, it } from 'vitest';
import { requestSeries } from '../../src/http/request-metrics.js';

describe('request series', () => {
  const make = () =>
    requestSeries({ name: 'reqs_total', help: 'Requests.' }, { name: 'req_seconds', help: 'Latency.', buckets: [0.01, 0.1, 1] });

  it('counts each (method, route, status) apart, with cumulative buckets where a value equal to a bound is within it', () => {
    const series = make();
    const ok = series.observer('GET', '/a/:id', 200);
    ok(0.01);
    ok(0.05);
    ok(5);
    series.observer('GET', '/a/:id', 404)(0.2);
    // The same labels give the same series.
    series.observer('GET', '/a/:id', 200)(0.001);
    const text = series.text();
    expect(text).toContain('# TYPE reqs_total counter');
    expect(text).toContain('reqs_total{method="GET",route="/a/:id",status="200"} 4');
    expect(text).toContain('reqs_total{method="GET",route="/a/:id",status="404"} 1');
    expect(text).toContain('# TYPE req_seconds histogram');
    const labels = 'method="GET",route="/a/:id",status="200"';
    expect(text).toContain(`req_seconds_bucket{le="0.01",${labels}} 2`);
    expect(text).toContain(`req_seconds_bucket{le="0.1",${labels}} 3`);
    expect(text).toContain(`req_seconds_bucket{le="1",${labels}} 3`);
    expect(text).toContain(`req_seconds_bucket{le="+Inf",${labels}} 4`);
    expect(text).toContain(`req_seconds_count{${labels}} 4`);
    expect(text).toContain(`req_seconds_sum{${labels}} ${0.01 + 0.05 + 5 + 0.001}`);
    expect(text).toContain('req_seconds_bucket{le="1",method="GET",route="/a/:id",status="404"} 1');
  });

  it('escapes label values', () => {
    const series = make();
    series.observer('GET', 'a"b\\c\nd', 200)(0.5);
    expect(series.text()).toContain('route="a\\"b\\\\c\\nd"');
  });
});

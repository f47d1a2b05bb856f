import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenSecret, tokenService } from '../../src/auth/tokens.js';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';

/** The value of one series in Prometheus text, or undefined when it is not there. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return undefined;
}

const requests = (route: string, status: number, method = 'GET') => ({ method, route, status: String(status) });

describe.each(storeKinds())('GET /metrics (%s)', (kind) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService(kind);
  });
  afterAll(() => service?.close());

  const scrape = async () => {
    const res = await service.get('/metrics');
    expect(res.status).toBe(200);
    return res.text;
  };

  it('answers the Prometheus text format, process metrics included', async () => {
    const res = await service.get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(sample(res.text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sample(res.text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(res.text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
  });

  it('counts requests by route pattern and status, never by raw URL; unknown paths share one label', async () => {
    const before = await scrape();
    await service.get('/measurements/1');
    await service.get('/measurements/2?time_delta=P1D');
    await service.get('/measurements/424242');
    await service.get('/no/such/path/1');
    await service.get('/no/such/path/2');
    const text = await scrape();
    const delta = (labels: Record<string, string>, name = 'sensorhub_http_requests_total') =>
      (sample(text, name, labels) ?? 0) - (sample(before, name, labels) ?? 0);
    expect(delta(requests('/measurements/:sensor_id', 200))).toBe(2);
    expect(delta(requests('/measurements/:sensor_id', 404))).toBe(1);
    expect(delta(requests('unmatched', 404))).toBe(2);
    expect(delta(requests('/measurements/:sensor_id', 200), 'sensorhub_http_request_duration_seconds_count')).toBe(2);
    expect(delta({ ...requests('/measurements/:sensor_id', 200), le: '+Inf' }, 'sensorhub_http_request_duration_seconds_bucket')).toBe(2);
    expect(text).not.toContain('/no/such/path');
    expect(text).not.toContain('route="/measurements/1"');
  });

  it('counts the polled reads answered in front of the routes under the routes’ own labels', async () => {
    expect((await service.post('/measurements', { sensor_id: 1, value: 1.5 })).status).toBe(200);
    const before = await scrape();
    for (let i = 0; i < 3; i++) expect((await service.get('/measurements/1/last')).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await service.get('/actuators/1/state')).status).toBe(200);
    expect((await service.get('/actuators/999/state')).status).toBe(404);
    const text = await scrape();
    const delta = (labels: Record<string, string>) =>
      (sample(text, 'sensorhub_http_requests_total', labels) ?? 0) - (sample(before, 'sensorhub_http_requests_total', labels) ?? 0);
    expect(delta(requests('/measurements/:sensor_id/last', 200))).toBe(3);
    expect(delta(requests('/actuators/:actuator_id/state', 200))).toBe(2);
    expect(delta(requests('/actuators/:actuator_id/state', 404))).toBe(1);
    const latency = (t: string) =>
      sample(t, 'sensorhub_http_request_duration_seconds_count', requests('/measurements/:sensor_id/last', 200)) ?? 0;
    expect(latency(text) - latency(before)).toBe(3);
  });

  it('counts measurements ingested and the size of each group commit', async () => {
    const before = await scrape();
    expect((await service.post('/measurements', { sensor_id: 2, value: 7 })).status).toBe(200);
    const batch = Array.from({ length: 5 }, (_, i) => ({ sensor_id: 3, value: 20 + i }));
    expect((await service.post('/measurements', batch)).status).toBe(200);
    // A refused request adds nothing.
    expect((await service.post('/measurements', { sensor_id: 999_999, value: 1 })).status).toBe(404);
    const text = await scrape();
    const delta = (name: string) => (sample(text, name) ?? 0) - (sample(before, name) ?? 0);
    expect(delta('sensorhub_measurements_ingested_total')).toBe(6);
    expect(delta('sensorhub_group_commit_rows_sum')).toBe(6);
    expect(delta('sensorhub_group_commit_requests_sum')).toBe(2);
    expect(delta('sensorhub_group_commit_requests_count')).toBeGreaterThanOrEqual(1);
    expect(delta('sensorhub_group_commit_requests_count')).toBeLessThanOrEqual(2);
    expect(
      (sample(text, 'sensorhub_http_requests_total', requests('/measurements', 200, 'POST')) ?? 0) -
        (sample(before, 'sensorhub_http_requests_total', requests('/measurements', 200, 'POST')) ?? 0),
    ).toBe(2);
  });

  it('counts deletes under their own pattern', async () => {
    const before = await scrape();
    expect((await service.request('DELETE', '/measurements/2147483647')).status).toBe(404);
    const text = await scrape();
    const labels = requests('/measurements/:measurement_id', 404, 'DELETE');
    expect(
      (sample(text, 'sensorhub_http_requests_total', labels) ?? 0) - (sample(before, 'sensorhub_http_requests_total', labels) ?? 0),
    ).toBe(1);
  });

  it(`shows the connection pool's use ${kind === 'postgres' ? 'for PostgreSQL' : 'only for PostgreSQL'}`, async () => {
    const text = await scrape();
    if (kind === 'postgres') {
      expect(sample(text, 'sensorhub_db_pool_connections')).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'sensorhub_db_pool_idle_connections')).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'sensorhub_db_pool_waiting_requests')).toBe(0);
    } else {
      expect(text).not.toContain('sensorhub_db_pool');
    }
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await service.get('/openapi.json')).body;
    expect(doc.paths['/metrics'].get.operationId).toBe('metrics');
  });
});

describe.each(storeKinds())('GET /metrics in AUTH_MODE=enforced (%s)', (kind) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService(kind, { env: { AUTH_MODE: 'enforced' } });
  });
  afterAll(() => service?.close());

  it('needs the admin permission', async () => {
    const tokens = tokenService(await tokenSecret(undefined, service.store.settings), 3600_000);
    const user = async (username: string, permissions: number) =>
      tokens.issue(
        (await service.store.users.create({ username, password_hash: 'unused', permissions, created_at: Date.now() }))!,
        Date.now(),
      );
    const editor = await user('editor', 1 | 2 | 4);
    const admin = await user('admin', 8);
    const anonymous = await service.get('/metrics');
    expect(anonymous.status).toBe(401);
    expect(anonymous.text).not.toContain('sensorhub_http_requests_total');
    expect((await service.get('/metrics', { token: editor })).status).toBe(403);
    const res = await service.get('/metrics', { token: admin });
    expect(res.status).toBe(200);
    expect(sample(res.text, 'sensorhub_http_requests_total', requests('/metrics', 403))).toBe(1);
  });
});

import { get } from 'node:http';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenSecret, tokenService } from '../../src/auth/tokens.js';
import type { Store } from '../../src/store/index.js';
import { startService, type TestService } from '../helpers/service.js';
import { liveService, openStream, type SseEvent } from '../helpers/sse.js';
import { storeKinds, dbOf } from '../helpers/stores.js';
import { basePumpBody, sensorTrustDefaults } from '../helpers/bodies.js';

const NOW = Date.UTC(2026, 10, 22, 12);
const iso = (ms: number) => new Date(ms).toISOString();
const SENSOR = {
  sensor_type: 'ph',
  sensor_unit: 'pH',
  threshold_critically_low: 0,
  threshold_low: 5,
  threshold_high: 7,
  threshold_critically_high: 14,
  ...sensorTrustDefaults,
};
const data = (event: SseEvent) => JSON.parse(event.data);
/** The events but the alerts, which values beyond the thresholds raise after their own evaluation. */
const withoutAlerts = (events: readonly SseEvent[]) => events.filter((e) => e.event !== 'alert');
const measurementCount = async (service: TestService) =>
  Number((await sql<{ n: number }>`select count(*) as n from measurements`.execute(dbOf(service.store))).rows[0].n);

describe.each(storeKinds())('GET /events (%s)', (kind) => {
  const { service, manual, open } = liveService(kind, NOW, (timers) => ({
    env: { STALE_AFTER: 'PT1H' },
    app: { liveEvents: { timers, streams: { heartbeatMs: 50, maxBacklogBytes: 256 * 1024 } } },
  }));
  const created = async (path: string, body: unknown) => {
    const res = await service.post(path, body);
    expect(res.status).toBeLessThan(300);
    return res.body;
  };
  let nextPrototype = 10;
  /** A prototype of its own with one sensor, so no other test's events reach it. */
  const newSensor = async () => {
    const prototype_id = nextPrototype++;
    await created('/prototypes', { prototype_id, prototype_name: `tank ${prototype_id}` });
    const sensor = await created('/sensors/', { ...SENSOR, prototype_id });
    return { prototype_id, sensor_id: sensor.sensor_id as number };
  };

  it('sends each change after its commit: prototype, sensor, measurements, actuator; `id:` on every event, `retry:` first', async () => {
    const stream = await open();
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const prototype_id = nextPrototype++;
    await created('/prototypes', { prototype_id, prototype_name: 'events' });
    expect(data(await stream.next((e) => e.event === 'prototype'))).toEqual({ prototype_id, prototype_name: 'events', paused_until: null });

    const sensor = await created('/sensors/', { ...SENSOR, prototype_id });
    expect(data(await stream.next((e) => e.event === 'sensor'))).toEqual(sensor);

    const stored = await created('/measurements', [
      { sensor_id: sensor.sensor_id, value: 6.5, timestamp: iso(NOW) },
      { sensor_id: sensor.sensor_id, value: 6.6, timestamp: iso(NOW) },
    ]);
    expect(data(await stream.next((e) => e.event === 'measurements'))).toEqual(stored);

    const actuator = await created('/actuators', {
      actuator_type: 'acid_pump',
      sensor_id: sensor.sensor_id,
      condition_value: 7,
      activation_condition: 'low',
      activation_period: 60,
      activation_duration: 2,
    });
    const event = data(await stream.next((e) => e.event === 'actuator'));
    expect(event).toEqual({
      actuator,
      state: { activate: false, status: 'Activation period not elapsed', reason: 'waiting', duration: 2, period: 60 },
    });

    const [patched] = await (await service.patch('/sensors', [{ sensor_id: sensor.sensor_id, sensor_unit: 'pH units' }])).body;
    const update = data(await stream.next((e) => e.event === 'sensor' && data(e).sensor_unit === 'pH units'));
    expect(update).toEqual(patched);

    expect(stream.retry).toBe(3000);
    expect(stream.events.every((e) => typeof e.id === 'string' && e.id.length > 0)).toBe(true);
    expect(new Set(stream.events.map((e) => e.id)).size).toBe(stream.events.length);
  });

  it('sends nothing for a rejected request', async () => {
    const { sensor_id } = await newSensor();
    const stream = await open(`?sensor_id=${sensor_id}`);
    const before = await measurementCount(service);
    expect((await service.post('/measurements', { sensor_id, value: 'high' })).status).toBe(422);
    expect(
      (
        await service.post('/measurements', [
          { sensor_id, value: 1 },
          { sensor_id: 999_999, value: 2 },
        ])
      ).status,
    ).toBe(404);
    expect((await service.post('/measurements', { sensor_id, value: 1, timestamp: iso(NOW + 3600_000) })).status).toBe(422);
    expect((await service.patch('/sensors', [{ sensor_id, threshold_low: 100 }])).status).toBe(422);
    expect(await measurementCount(service)).toBe(before);
    // The next event is the change that was accepted: none came for the rejected ones.
    const stored = await created('/measurements', { sensor_id, value: 3 });
    const first = await stream.next();
    expect(first.event).toBe('measurements');
    expect(data(first)).toEqual([stored]);
  });

  it('filters by sensor_id (repeatable), prototype_id and types; a batch keeps only the subscribed rows', async () => {
    const a = await newSensor();
    const b = await newSensor();
    const c = await newSensor();
    const onlyA = await open(`?sensor_id=${a.sensor_id}`);
    const aAndB = await open(`?sensor_id=${a.sensor_id}&sensor_id=${b.sensor_id}&types=measurements`);
    const prototypeC = await open(`?prototype_id=${c.prototype_id}&types=sensor,measurements`);

    const rows = await created('/measurements', [
      { sensor_id: a.sensor_id, value: 1 },
      { sensor_id: b.sensor_id, value: 2 },
      { sensor_id: c.sensor_id, value: 3 },
    ]);
    await service.patch('/sensors', [
      { sensor_id: c.sensor_id, sensor_unit: 'mV' },
      { sensor_id: a.sensor_id, sensor_unit: 'mV' },
    ]);
    // A change the three ignore, then one each takes: what came before it is all each was sent.
    const marker = await created('/measurements', [
      { sensor_id: a.sensor_id, value: 9 },
      { sensor_id: c.sensor_id, value: 9 },
    ]);

    await onlyA.next((e) => e.event === 'measurements' && data(e)[0].value === 9);
    // All types by default: the values are beyond the thresholds, so alert events come too, in their own time.
    expect(withoutAlerts(onlyA.events).map((e) => [e.event, data(e)])).toEqual([
      ['measurements', [rows[0]]],
      ['sensor', { ...SENSOR, sensor_id: a.sensor_id, prototype_id: a.prototype_id, sensor_unit: 'mV' }],
      ['measurements', [marker[0]]],
    ]);
    await aAndB.next((e) => data(e)[0].value === 9);
    expect(aAndB.events.map((e) => data(e))).toEqual([[rows[0], rows[1]], [marker[0]]]);
    await prototypeC.next((e) => e.event === 'measurements' && data(e)[0].value === 9);
    expect(prototypeC.events.map((e) => [e.event, data(e)])).toEqual([
      ['measurements', [rows[2]]],
      ['sensor', { ...SENSOR, sensor_id: c.sensor_id, prototype_id: c.prototype_id, sensor_unit: 'mV' }],
      ['measurements', [marker[1]]],
    ]);
  });

  it('refuses an unknown type (422) and unknown sensors or prototypes (404)', async () => {
    const open = service.app.liveEvents.streams.count;
    const res = await service.get('/events?types=measurements,weather');
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['query', 'types']);
    expect((await service.get('/events?sensor_id=999999')).status).toBe(404);
    expect((await service.get('/events?prototype_id=999999')).status).toBe(404);
    expect((await service.get('/events?sensor_id=abc')).status).toBe(422);
    // No stream was opened for any of them.
    expect(service.app.liveEvents.streams.count).toBe(open);
  });

  it('tells the instant the activation period elapses, and the instant the sensor turns stale', async () => {
    const { sensor_id } = await newSensor();
    const stream = await open(`?sensor_id=${sensor_id}&types=actuator`);
    // Created at NOW: the period runs until NOW + 60 s; the reading (low) says run once it has.
    const actuator = await created('/actuators', basePumpBody(sensor_id));
    await created('/measurements', { sensor_id, value: 4, timestamp: iso(NOW) });
    await stream.next((e) => data(e).state.status === 'Activation period not elapsed');
    const seen = stream.events.length;
    expect(manual.due()).toContain(NOW + 60_000);

    // A millisecond early: nothing. A marker change shows that nothing came before it.
    manual.advanceTo(NOW + 59_999);
    await service.patch('/actuators', [{ actuator_id: actuator.actuator_id, actuator_name: 'marker' }]);
    const marker = await stream.next((e) => data(e).actuator.actuator_name === 'marker', { from: seen });
    expect(stream.events.indexOf(marker)).toBe(seen);
    expect(data(marker).state.activate).toBe(false);

    manual.advanceTo(NOW + 60_000);
    const elapsed = await stream.next((e) => data(e).state.activate === true, { from: seen + 1 });
    expect(data(elapsed).state).toEqual({ activate: true, status: 'OK', reason: 'ok', duration: 3, period: 60 });
    expect(data(elapsed).actuator.actuator_id).toBe(actuator.actuator_id);

    // Stale once the reading is older than an hour: from NOW + 1 h + 1 ms.
    expect(manual.due()).toContain(NOW + 3600_001);
    manual.advanceTo(NOW + 3600_000);
    manual.advanceTo(NOW + 3600_001);
    const stale = await stream.next((e) => data(e).state.status.startsWith('Last measurement too old'), { from: seen + 2 });
    expect(stream.events.indexOf(stale)).toBe(seen + 2);
    expect(data(stale).state.activate).toBe(false);
    // Nothing left to wait for on this actuator until a write.
    expect(manual.due().filter((t) => t <= NOW + 3600_001)).toEqual([]);
  });

  it('resumes from Last-Event-ID with what was missed; an id no longer known gets `reset`', async () => {
    const { sensor_id } = await newSensor();
    const first = await open(`?sensor_id=${sensor_id}`);
    const one = await created('/measurements', { sensor_id, value: 1 });
    const seenOne = await first.next((e) => e.event === 'measurements');
    first.close();
    const two = await created('/measurements', { sensor_id, value: 2 });
    const three = await created('/measurements', { sensor_id, value: 3 });

    const resumed = await open(`?sensor_id=${sensor_id}`, { 'last-event-id': seenOne.id! });
    await resumed.next((e) => e.event === 'measurements' && data(e)[0].value === 3);
    expect(withoutAlerts(resumed.events).map(data)).toEqual([[two], [three]]);
    expect(data(seenOne)).toEqual([one]);

    const lost = await open(`?sensor_id=${sensor_id}`, { 'last-event-id': 'another-instance-42' });
    const reset = await lost.next();
    expect(reset.event).toBe('reset');
    expect(reset.id).toBeTruthy();
  });

  it('is described in the OpenAPI document, with its filters', async () => {
    const document = (await service.get('/openapi.json')).body;
    const operation = document.paths['/events'].get;
    expect(operation.summary).toBe('Live Events');
    expect(operation.description).toContain('Last-Event-ID');
    expect(operation.parameters.map((p: { name: string }) => p.name).sort()).toEqual([
      'access_token',
      'prototype_id',
      'sensor_id',
      'types',
    ]);
  });

  it('writes a comment line periodically', async () => {
    const stream = await open('?types=alert');
    expect(await stream.nextComment()).toBe('keep-alive');
  });

  it('cuts off a client that stops reading, while another keeps receiving everything', async () => {
    const { sensor_id } = await newSensor();
    const reader = await open(`?sensor_id=${sensor_id}&types=measurements`);
    const registry = service.app.liveEvents.streams;
    const before = registry.count;
    const cutBefore = registry.cutOff;
    // A client that sends its request and never reads a byte of the answer.
    const { port } = new URL(service.url);
    const stalled = connect({ port: Number(port), host: '127.0.0.1' });
    stalled.pause();
    stalled.write(`GET /events?sensor_id=${sensor_id} HTTP/1.1\r\nHost: x\r\n\r\n`);
    await expect.poll(() => registry.count).toBe(before + 1);

    const batch = Array.from({ length: 10_000 }, (_, i) => ({ sensor_id, value: i }));
    let posted = 0;
    while (registry.cutOff === cutBefore && posted < 60) {
      await created('/measurements', batch);
      posted++;
    }
    expect(registry.cutOff).toBe(cutBefore + 1);
    expect(registry.count).toBe(before);
    stalled.destroy();
    // The reader was sent every batch, whole.
    await reader.next(() => reader.events.length === posted, { timeoutMs: 30_000 });
    expect(reader.events.map((e) => data(e).length)).toEqual(Array(posted).fill(10_000));
  });

  it('ends open streams when the service drains and closes, so shutdown does not wait on them', async () => {
    const other = await startService(kind);
    const stream = await openStream(`${other.url}/events`);
    expect(other.app.liveEvents.streams.count).toBe(1);
    const metrics = await other.get('/metrics');
    expect(metrics.text).toMatch(/^sensorhub_event_streams_open 1$/m);
    await other.app.drain();
    await stream.ended;
    expect(other.app.liveEvents.streams.count).toBe(0);
    await other.close();
  });

  it('keeps a stream open past the request time limit and the idle limit', async () => {
    const other = await startService(kind, {
      env: { HTTP_HEADERS_TIMEOUT_MS: '100', HTTP_REQUEST_TIMEOUT_MS: '200', HTTP_IDLE_TIMEOUT_MS: '1000' },
    });
    try {
      const stream = await openStream(`${other.url}/events?types=alert`);
      // Comments every half idle limit (500 ms): the third comes after both limits have passed.
      for (let i = 0; i < 3; i++) await stream.nextComment();
      expect(other.app.liveEvents.streams.count).toBe(1);
      stream.close();
    } finally {
      await other.close();
    }
  });
});

/** A token for a user made directly in the store (as the command-line tool does). */
async function tokenFor(store: Store, username: string, permissions: number): Promise<string> {
  const user = await store.users.create({ username, password_hash: 'unused', permissions, created_at: Date.now() });
  const tokens = tokenService(await tokenSecret(undefined, store.settings), 3600_000);
  return tokens.issue(user!, Date.now());
}

describe.each(storeKinds())('GET /events with AUTH_MODE=enforced (%s)', (kind) => {
  let service: TestService;
  const lines: string[] = [];
  beforeAll(async () => {
    const logs = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    service = await startService(kind, { env: { AUTH_MODE: 'enforced' }, app: { logger: { level: 'info', stream: logs } } });
  });
  afterAll(() => service?.close());

  it('needs the read permission, by header or by ?access_token=, and never logs the token', async () => {
    const reader = await tokenFor(service.store, 'reader', 2);
    const device = await tokenFor(service.store, 'device', 1);
    expect((await service.get('/events')).status).toBe(401);
    expect((await service.get('/events?access_token=forged')).status).toBe(401);
    expect((await service.get(`/events?access_token=${device}`)).status).toBe(403);

    const byQuery = await openStream(`${service.url}/events?types=sensor&access_token=${reader}`);
    expect(byQuery.status).toBe(200);
    const byHeader = await openStream(`${service.url}/events?types=sensor`, { authorization: `Bearer ${reader}` });
    expect(byHeader.status).toBe(200);
    byQuery.close();
    byHeader.close();
    await expect.poll(() => lines.filter((l) => l.includes('"url":"/events?types=sensor&access_token=[redacted]"')).length).toBe(1);
    expect(lines.some((l) => l.includes(reader) || l.includes(device) || l.includes('forged'))).toBe(false);
  });

  it('never logs the token under a name that decodes to access_token, however it is encoded', async () => {
    const reader = await tokenFor(service.store, 'encoded reader', 2);
    const { port } = new URL(service.url);
    /** The request target sent exactly as written (a URL object would drop what follows `#`). */
    const statusOf = (path: string) =>
      new Promise<number>((resolve, reject) => {
        const request = get({ host: '127.0.0.1', port: Number(port), path, agent: false }, (response) => {
          resolve(response.statusCode ?? 0);
          request.destroy();
        });
        request.once('error', reject);
      });
    const accepted = ['access%5Ftoken', 'access%5ftoken', '%61ccess_token', '%61%63%63%65%73%73%5F%74%6F%6B%65%6E', 'access_%74oken'];
    for (const name of accepted) {
      expect(await statusOf(`/events?types=sensor&${name}=${reader}`), name).toBe(200);
      await expect.poll(() => lines.some((l) => l.includes(`"url":"/events?types=sensor&${name}=[redacted]"`))).toBe(true);
    }
    // The router starts the query at `#` too.
    expect(await statusOf(`/events#access%5Ftoken=${reader}`)).toBe(200);
    await expect.poll(() => lines.some((l) => l.includes('"url":"/events#access%5Ftoken=[redacted]"'))).toBe(true);
    // Not a name the authentication takes, but redacted all the same.
    expect(await statusOf(`/events?ACCESS%5FTOKEN=${reader}`)).toBe(401);
    await expect.poll(() => lines.some((l) => l.includes('"url":"/events?ACCESS%5FTOKEN=[redacted]"'))).toBe(true);
    expect(lines.filter((l) => l.includes(reader))).toEqual([]);
  });
});

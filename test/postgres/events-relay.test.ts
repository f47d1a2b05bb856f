import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { phSensorBody } from '../helpers/bodies.js';
import { type ServiceProcess, spawnService } from '../helpers/process.js';
import { openStream, type SseEvent, type SseStream } from '../helpers/sse.js';
import { type ScratchDatabase, scratchDatabase } from '../helpers/stores.js';

const post = async (url: string, body: unknown) => {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status).toBeLessThan(300);
  return (await res.json()) as any;
};
const data = (event: SseEvent) => JSON.parse(event.data);

describe.runIf(process.env.TEST_DATABASE_URL)('live events across service processes on one PostgreSQL database', () => {
  let database: ScratchDatabase;
  let a: ServiceProcess;
  let b: ServiceProcess;
  const streams: SseStream[] = [];
  const open = async (url: string) => {
    const stream = await openStream(url);
    streams.push(stream);
    return stream;
  };
  beforeAll(async () => {
    database = await scratchDatabase('postgres');
    a = await spawnService({ DATABASE_URL: database.url });
    b = await spawnService({ DATABASE_URL: database.url });
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.drop();
  });

  it('an event caused on one process reaches the streams of both, once each', async () => {
    const onA = await open(`${a.url}/events?types=measurements,sensor`);
    const onB = await open(`${b.url}/events?types=measurements,sensor`);
    const stored = await post(`${a.url}/measurements`, { sensor_id: 1, value: 6.25 });
    const seen = await onB.next((e) => e.event === 'measurements');
    expect(data(seen)).toEqual([stored]);

    // A change made on B, seen on A; after it, A holds the measurement exactly once.
    const sensor = await post(`${b.url}/sensors/`, phSensorBody);
    expect(data(await onA.next((e) => e.event === 'sensor'))).toEqual(sensor);
    expect(onA.events.map((e) => e.event)).toEqual(['measurements', 'sensor']);
    expect(data(onA.events[0])).toEqual([stored]);
    await onB.next((e) => e.event === 'sensor');
    expect(onB.events.map((e) => e.event)).toEqual(['measurements', 'sensor']);
  });

  it('a 10,000-measurement batch crosses as a few notifications and arrives whole, in order', async () => {
    const onB = await open(`${b.url}/events?sensor_id=2&types=measurements`);
    const batch = Array.from({ length: 10_000 }, (_, i) => ({ sensor_id: 2, value: i }));
    const stored = (await post(`${a.url}/measurements`, batch)) as { measurement_id: number }[];
    const event = await onB.next(() => onB.events.flatMap(data).length >= 10_000, { timeoutMs: 20_000 });
    expect(event).toBeDefined();
    expect(onB.events.flatMap(data)).toEqual(stored);
  });

  it('the actuator decision changes on every process when a measurement arrives on one', async () => {
    // The default acid pump (ph sensor 2, high above 6.5), enabled, no period to wait: a reading of 7 makes it run.
    const enabled = await fetch(`${a.url}/actuators`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ actuator_id: 1, enabled: true, activation_period: 0 }]),
    });
    expect(enabled.status).toBe(200);
    const onB = await open(`${b.url}/events?types=actuator`);
    await post(`${a.url}/measurements`, { sensor_id: 2, value: 7 });
    const event = await onB.next((e) => data(e).state?.activate === true);
    expect(data(event).actuator.actuator_id).toBe(1);
  });

  it('a measurement deleted on one process: the streams of every process are told, and decide its actuators again', async () => {
    const sensor = await post(`${a.url}/sensors/`, phSensorBody);
    const { sensor_id } = sensor;
    const actuator = await post(`${a.url}/actuators`, {
      actuator_type: 'acid_pump',
      sensor_id,
      condition_value: 7,
      activation_condition: 'high',
      activation_period: 0,
      activation_duration: 2,
    });
    const onB = await open(`${b.url}/events?sensor_id=${sensor_id}&types=measurements,actuator,sensor`);
    await post(`${a.url}/measurements`, { sensor_id, value: 8 });
    await onB.next((e) => e.event === 'actuator' && data(e).state.activate === true);
    const low = await post(`${a.url}/measurements`, { sensor_id, value: 6 });
    const calmed = await onB.next((e) => e.event === 'actuator' && data(e).state.activate === false);
    const seen = onB.events.indexOf(calmed) + 1;

    expect((await fetch(`${a.url}/measurements/${low.measurement_id}`, { method: 'DELETE' })).status).toBe(204);
    const reset = await onB.next((e) => e.event === 'reset', { from: seen });
    expect(data(reset)).toEqual({ reason: 'measurement deleted', sensor_id, measurement_id: low.measurement_id });
    const again = await onB.next((e) => e.event === 'actuator', { from: seen });
    expect(data(again).state.activate).toBe(true);
    const state = (await (await fetch(`${b.url}/actuators/${actuator.actuator_id}/state`)).json()) as { activate: boolean };
    expect(state.activate).toBe(true);

    // A cascade on A: B's stream hears of the actuator, then of the sensor.
    expect((await fetch(`${a.url}/sensors/${sensor_id}?cascade=true`, { method: 'DELETE' })).status).toBe(204);
    const gone = await onB.next((e) => e.event === 'sensor', { from: seen });
    // The deletions, in order (decisions B works out for itself meanwhile are not what this checks).
    const after = onB.events.slice(onB.events.indexOf(again) + 1, onB.events.indexOf(gone) + 1).filter((e) => 'deleted' in data(e));
    expect(after.map((e) => [e.event, data(e)])).toEqual([
      ['actuator', { deleted: actuator.actuator_id }],
      ['sensor', { deleted: sensor_id }],
    ]);
  });

  it('listens again after its connection to PostgreSQL is cut, and tells its clients to reload', async () => {
    const onB = await open(`${b.url}/events?sensor_id=3&types=measurements`);
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      const cut = await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = 'sensorhub-relay'`,
      );
      expect(cut.rowCount).toBe(2);
    } finally {
      await admin.end();
    }
    expect((await onB.next((e) => e.event === 'reset')).event).toBe('reset');
    const stored = await post(`${a.url}/measurements`, { sensor_id: 3, value: 21.5 });
    expect(data(await onB.next((e) => e.event === 'measurements'))).toEqual([stored]);
  });
});
